#!/usr/bin/env bash
# Builds the peers `hybrid-bench --peers` measures against, into .build/peers/: the ncurses
# program drawing the peer scene (bench/peers/ncurses_scene.c, with -O2) and the scene data it
# reads (generated from the JSON by bench/peers/scene_to_text.py). Installs gcc and Debian's
# libncurses-dev with apt only when they are missing (idempotent), and rebuilds only what is
# older than its sources.
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

if ! has_ncursesw; then
    echo "build-peers: installing gcc and libncurses-dev (the ncurses peer) with apt" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq gcc libncurses-dev python3 >/dev/null
fi

mkdir -p "$out"
if [ ! "$out/ncurses_scene" -nt bench/peers/ncurses_scene.c ]; then
    gcc -O2 -Wall -Wextra -Werror -o "$out/ncurses_scene" bench/peers/ncurses_scene.c -lncursesw
fi
if [ ! "$out/peer-scene.txt" -nt "$scene" ] || [ ! "$out/peer-scene.txt" -nt bench/peers/scene_to_text.py ]; then
    python3 bench/peers/scene_to_text.py "$scene" "$out/peer-scene.txt"
fi
echo "$out/ncurses_scene $out/peer-scene.txt"
