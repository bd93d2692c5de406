#!/usr/bin/env bash
# Installs what building and running HybridTerm needs, only when it is missing (idempotent):
# JavaScriptCore's development files and pkg-config, from Debian. (The tests need more:
# scripts/setup-tests.sh.)
set -euo pipefail

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: swift is not on PATH; install Swift 6 first (https://swift.org/install)" >&2
    exit 1
fi

if ! pkg-config --exists javascriptcoregtk-4.1 2>/dev/null; then
    echo "setup: installing libjavascriptcoregtk-4.1-dev (JavaScriptCore) with apt" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq libjavascriptcoregtk-4.1-dev pkg-config >/dev/null
fi
