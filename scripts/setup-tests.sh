#!/usr/bin/env bash
# Installs what the tests need besides what running needs, only when it is missing
# (idempotent): Python's jsonschema for the schema checks and pyte for the output checks, from
# Debian (python3-jsonschema, python3-pyte; the system Python refuses `pip install`), unless a
# python3 on PATH already has them, and tsc (node-typescript) for the type check of the scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Whether a python3 on PATH, or Debian's own, can import module $1.
python_has() {
    for python in python3 /usr/bin/python3; do
        if command -v "$python" >/dev/null 2>&1 && "$python" -c "import $1" 2>/dev/null; then return 0; fi
    done
    return 1
}

# Installs Debian package $2 when no Python can import module $1; $3 says what it is for.
install_python_module() {
    if ! python_has "$1"; then
        echo "setup: installing $2 ($3) with apt" >&2
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq python3 "$2" >/dev/null
    fi
}

install_python_module jsonschema python3-jsonschema "used by the schema tests"
# pyte, a VT emulator the frame encoder's output is replayed on (Tests/python/pyte_screen.py).
install_python_module pyte python3-pyte "a VT emulator used by the output tests"

# tsc, for the type check of the sample scripts against types/hybridterm.d.ts
# (Tests/EndToEndTests/TypeScriptTests.swift): Debian's node-typescript, unless one is on PATH.
if ! command -v tsc >/dev/null 2>&1; then
    echo "setup: installing node-typescript (tsc, used by the TypeScript tests) with apt" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq node-typescript >/dev/null
fi
