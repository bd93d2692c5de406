#!/usr/bin/env bash
# Builds the `hybrid` binary to ship: optimized, with the Swift runtime and Foundation linked
# in statically, so it starts without resolving their symbols at every launch (a third of
# the start-up time of `hybrid render`, BENCHMARKS.md "Start-up") and runs on a machine
# without Swift. It builds apart from the tests' debug build (its own folder, .build-release,
# as `--static-swift-stdlib` is a build flag, not a package setting), so the first build
# takes several minutes on a small machine. It exports no symbols: `--static-swift-stdlib` links with
# `-export-dynamic`, and the Swift runtime's start-up `dladdr` (finding its backtracer) then
# walks all 46,000 of them, a sixth of `hybrid render`'s start (BENCHMARKS.md "Start-up");
# nothing looks our symbols up at run time (JavaScriptCore is opened apart, RTLD_LOCAL). And
# its code names concrete generic types by their metadata accessors, not by mangled names the
# runtime demangles the first time (`-disable-concrete-type-metadata-mangled-name-accessors`):
# a name like `Set<Diagnostic>` made the runtime look for `Diagnostic: Hashable` by walking all
# 10,400 conformance records, where the accessor is handed the conformance; a quarter of
# `hybrid render`'s instructions (BENCHMARKS.md "Start-up"):
#   scripts/build-release.sh && .build-release/release/hybrid --version
# Another product is built the same way when named, as the benchmark measures what ships:
#   "$(scripts/build-release.sh hybrid-bench)" --only rendering --peers
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
product=${1:-hybrid}
"$repo/scripts/setup.sh"
swift build -c release --static-swift-stdlib --package-path "$repo" --scratch-path "$repo/.build-release" --product "$product" \
    -Xlinker --no-export-dynamic -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors >&2
echo "$repo/.build-release/release/$product"
