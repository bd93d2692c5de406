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

# Whether the SwiftPM holding the build folder's lock is one of this script's callers, as
# under `swift test`: a build would wait for it to finish, and it waits for this script.
lock_held_by_caller() {
    local holder pid=$$ stat
    holder=$(cat "$repo/.build/.lock" 2>/dev/null) || return 1
    [[ "$holder" =~ ^[0-9]+$ ]] || return 1
    while [ "$pid" -gt 1 ]; do
        [ "$pid" = "$holder" ] && return 0
        # The parent is the field after the state, which follows the name in parentheses.
        stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
        read -r _ pid _ <<<"${stat##*) }"
        pid=${pid:-0}
    done
    return 1
}

if [ ! -x "$binary" ] || [ -n "$(find "$repo/Sources" "$repo/Plugins" "$repo/Package.swift" -newer "$binary" -print -quit)" ]; then
    if lock_held_by_caller; then
        if [ ! -x "$binary" ]; then
            echo "$product: not built, and the SwiftPM that runs this holds $repo/.build: build it first (swift build --product $product)" >&2
            exit 1
        fi
        echo "$product: sources changed since it was built, but the SwiftPM that runs this holds $repo/.build; running it as built" >&2
        exec "$binary" "$@"
    fi
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
