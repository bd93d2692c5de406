#!/usr/bin/env bash
# Runs a product of the package from the folder it is called in (paths mean what the user
# typed), setting up and building it first when needed:
#   scripts/run-product.sh hybrid render samples/dashboard.json
# When the built binary is newer than every source, it starts at once, with no build.
set -euo pipefail
product="$1"
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
# A debug build: it shares what ./test.sh builds, and a release build of SwiftNIO (for
# `hybrid serve`) costs many minutes on a small machine for no visible gain in a terminal app.
binary="$repo/.build/debug/$product"
if [ ! -x "$binary" ] || [ -n "$(find "$repo/Sources" "$repo/Plugins" "$repo/Package.swift" -newer "$binary" -print -quit)" ]; then
    "$repo/scripts/setup.sh"
    if [ -x "$binary" ]; then
        echo "$product: sources changed; building…" >&2
    else
        echo "$product: building it for the first time (several minutes on a small machine; later runs start at once)…" >&2
    fi
    swift build -q --package-path "$repo" --product "$product" >&2
    # A build that had nothing to relink leaves the binary's time as it was: mark it current,
    # or every later run would build again (and wait on a SwiftPM that is busy, as under tests).
    touch "$binary"
fi
exec "$binary" "$@"
