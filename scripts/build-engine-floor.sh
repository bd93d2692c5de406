#!/usr/bin/env bash
# Builds the engine's floor that `hybrid-bench --only startup` sets beside `hybrid run`: a C
# program that loads JavaScriptCore, makes one context and evaluates `1 + 1`
# (bench/peers/engine_floor.c, -O2), into .build/peers/. Installs gcc with apt only when it
# is missing (idempotent), and rebuilds only when the source is newer. Prints the program's path.
# Usage: scripts/build-engine-floor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/peers

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v gcc >/dev/null 2>&1; then
    echo "build-engine-floor: installing gcc with apt" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq gcc >/dev/null
fi

mkdir -p "$out"
if [ ! "$out/engine_floor" -nt bench/peers/engine_floor.c ]; then
    gcc -O2 -Wall -Wextra -Werror -o "$out/engine_floor" bench/peers/engine_floor.c -ldl
fi
echo "$out/engine_floor"
