#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser of outside input with libFuzzer.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]     # targets: json screen expression manifest archive apis theme terminal
#
# Builds `hybrid-fuzz` with -sanitize=fuzzer (the C targets too, such as CJSONScan's vector
# scans, with -fsanitize=fuzzer-no-link, so their branches guide it) into .build-fuzz (its own folder: a few minutes the
# first time), seeds each target's corpus from the samples and the test fixtures, and runs
# libFuzzer for SECONDS (default 60) per target. Crashes, hangs (over 10 s an input) and inputs
# that take over 2 GB land in .build-fuzz/findings/TARGET/; replay one with
#   swift run hybrid-fuzz TARGET FILE
# and keep it as a regression case in Tests/Fixtures/fuzz/TARGET/ (HybridFuzzTests replays them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
target=${1:-all}
seconds=${2:-60}
targets=(json screen expression manifest archive apis theme terminal)
if [ "$target" != all ]; then targets=("$target"); fi

export SWIFT_BACKTRACE=enable=no
swift build --product hybrid-fuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xcc -fsanitize=fuzzer-no-link >&2
fuzzer=.build-fuzz/debug/hybrid-fuzz

seed() { # TARGET FOLDER: the seed corpus, rebuilt each run; what libFuzzer learned stays in corpus/
    local name=$1 folder=$2
    mkdir -p "$folder"
    case $name in
    json | screen)
        cp samples/*.json Tests/Fixtures/invalid/*.json "$folder"/
        find samples -name '*.json' -path '*/screens/*' -exec cp {} "$folder"/ \; ;;
    apis)
        for f in Tests/Fixtures/apis/*/*.json; do cp "$f" "$folder/$(basename "$(dirname "$f")")-$(basename "$f")"; done ;;
    theme)
        find samples -name 'theme.json' -exec sh -c 'cp "$1" "$2/$(basename "$(dirname "$1")")-theme.json"' _ {} "$folder" \; ;;
    terminal)
        # Each seed: a chunk-size byte, then what terminals send (keys, a paste, the mouse, kitty).
        printf '\x03\x1b[A\x1b[1;5D\x1bb\x1b[3~\x1b[200~pasted\x1b[201~\x1b[<0;3;4M\x1b[13;5u\x1b[27;5;13~\x1c\x1a' > "$folder/keys"
        printf '\x00hello \xe2\x98\x95 \x1bOa\x1b[H\x1b[4~' > "$folder/text" ;;
    manifest)
        cp Tests/Fixtures/manifests/valid/*.json Tests/Fixtures/manifests/invalid/*.json "$folder"/
        for m in samples/*/manifest.json; do cp "$m" "$folder/$(basename "$(dirname "$m")").json"; done ;;
    expression)
        python3 - "$folder" <<'PY'
import json, pathlib, sys, hashlib
out = pathlib.Path(sys.argv[1])
for path in pathlib.Path("Tests/HybridExpressionsTests/Conformance").rglob("*.json"):
    try:
        cases = json.loads(path.read_text()).get("cases", [])
    except Exception:
        continue
    for case in cases:
        expression = case.get("expression")
        if isinstance(expression, str):
            name = hashlib.sha1(expression.encode()).hexdigest()[:16]
            (out / name).write_text(expression)
PY
        ;;
    archive) # the samples' bundles, signed with the key the target trusts
        local keys
        keys=$(mktemp -d)
        swift build --product hybrid -q >&2
        swift build --product hybrid-fuzz -q >&2
        .build/debug/hybrid-fuzz archive-key "$keys/fuzz"
        for bundle in samples/*/manifest.json; do
            dir=$(dirname "$bundle")
            .build/debug/hybrid bundle pack "$dir" --key "$keys/fuzz.key" --out "$folder/$(basename "$dir").hbundle" >/dev/null
        done
        rm -rf "$keys" ;;
    esac
    if [ -d "Tests/Fixtures/fuzz/$name" ]; then cp "Tests/Fixtures/fuzz/$name"/* "$folder"/ 2>/dev/null || true; fi
}

dictionary() { # TARGET FILE: the words of the format, so mutations speak it (libFuzzer -dict)
    python3 - "$1" "$2" <<'PY'
import json, pathlib, re, sys
target, out = sys.argv[1], pathlib.Path(sys.argv[2])
words = {"{", "}", "[", "]", ":", ",", "null", "true", "false", "1e19", "-1e308", "9223372036854775807",
         "-9223372036854775808", "4294967296", "\\u0000", "\\ud800"}
schema = {"screen": "schemas/screen.schema.json", "json": "schemas/screen.schema.json",
          "manifest": "schemas/manifest.schema.json", "apis": "schemas/apis.schema.json"}.get(target)
def walk(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                words.update('"%s"' % name for name in value)
            if key in ("enum", "const"):
                words.update('"%s"' % v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
            walk(value)
    elif isinstance(node, list):
        for value in node:
            walk(value)
if schema:
    walk(json.loads(pathlib.Path(schema).read_text()))
    words.update(['"@{', '}"', '"app://'])
if target == "expression":
    words = {"@{", "}", "(", ")", "'", "?", ":", "!", "&&", "||", "==", "+", "-", "*", "/", "%", ".", ",",
             "9223372036854775807", "-9223372036854775808", "1e308", "'#FF00FF00'", "'2024-01-01 00:00:00'"}
    for path in pathlib.Path("Tests/HybridExpressionsTests/Conformance").rglob("*.json"):
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*\(", path.read_text()))
out.write_text("".join('"%s"\n' % w.replace("\\", "\\\\").replace('"', '\\"') for w in sorted(words)))
PY
}

for name in "${targets[@]}"; do
    work=.build-fuzz/work/$name
    rm -rf "$work/seeds"
    mkdir -p "$work/corpus" ".build-fuzz/findings/$name"
    seed "$name" "$work/seeds"
    dict=()
    if [ "$name" != archive ]; then dictionary "$name" "$work/dict" && dict=(-dict="$work/dict"); fi
    echo "fuzz: $name for ${seconds}s" >&2
    HYBRID_FUZZ_TARGET=$name "$fuzzer" "$work/corpus" "$work/seeds" "${dict[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix=".build-fuzz/findings/$name/" -print_final_stats=1 2>"$work/log" || true
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|==ERROR|SUMMARY|Fatal error|deadly signal|ALARM|out-of-memory" "$work/log" | sed "s/^/$name: /" >&2 || true
done
found=$(find .build-fuzz/findings -type f | wc -l)
echo "fuzz: $found finding(s) in .build-fuzz/findings/" >&2
[ "$found" -eq 0 ]
