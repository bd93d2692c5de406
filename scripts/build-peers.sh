#!/usr/bin/env bash
# Builds the peers `hybrid-bench --peers` measures against, into .build/peers/: the tui-rs
# program drawing the peer scene (bench/peers/tui_scene, tui 0.19 from Debian's librust-tui-dev,
# built by cargo offline, for release), the ncurses one (bench/peers/ncurses_scene.c, with -O2),
# and the scene data both read (generated from the JSON by bench/peers/scene_to_text.py).
# Installs what is missing with apt (gcc, libncurses-dev, cargo, librust-tui-dev; idempotent),
# and rebuilds only what is older than its sources. Its last line is the scene data's path and
# each peer's name and program: `SCENE.txt tui-rs PROGRAM ncurses PROGRAM`.
# Usage: scripts/build-peers.sh [SCENE.json]   (default samples/peer-scene.json)
set -euo pipefail
cd "$(dirname "$0")/.."
scene="${1:-samples/peer-scene.json}"
out=.build/peers

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# gcc compiles and links a program using ncursesw's header and library.
has_ncursesw() {
    command -v gcc >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 &&
        printf '#include <curses.h>\nint main(void) { return curses_version() == 0; }\n' |
        gcc -x c - -o /dev/null -lncursesw >/dev/null 2>&1
}

# cargo builds a program on Debian's packaged tui crate (librust-tui-dev puts its sources in
# /usr/share/cargo/registry, where bench/peers/tui_scene/.cargo/config.toml points).
has_tui() {
    command -v cargo >/dev/null 2>&1 && compgen -G '/usr/share/cargo/registry/tui-0.19.*' >/dev/null
}

missing=()
has_ncursesw || missing+=(gcc libncurses-dev python3)
if ! has_tui; then
    missing+=(librust-tui-dev)
    command -v cargo >/dev/null 2>&1 || missing+=(cargo)
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "build-peers: installing ${missing[*]} (the ncurses and tui-rs peers) with apt" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi

mkdir -p "$out"
# cargo reads the source replacement from the folder it runs in; it rebuilds only what changed.
(cd bench/peers/tui_scene && cargo build --quiet --release --offline --target-dir "$OLDPWD/$out/tui-target")
if [ ! "$out/ncurses_scene" -nt bench/peers/ncurses_scene.c ]; then
    gcc -O2 -Wall -Wextra -Werror -o "$out/ncurses_scene" bench/peers/ncurses_scene.c -lncursesw
fi
if [ ! "$out/peer-scene.txt" -nt "$scene" ] || [ ! "$out/peer-scene.txt" -nt bench/peers/scene_to_text.py ]; then
    python3 bench/peers/scene_to_text.py "$scene" "$out/peer-scene.txt"
fi
echo "$out/peer-scene.txt tui-rs $out/tui-target/release/tui_scene ncurses $out/ncurses_scene"
