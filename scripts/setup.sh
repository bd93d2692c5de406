#!/usr/bin/env bash
# Installs what building and running HybridTerm needs, only when it is missing (idempotent):
# JavaScriptCore (the library, loaded when a script runs), SQLite's development files and
# pkg-config, from Debian. (The tests need more: scripts/setup-tests.sh.)
set -euo pipefail

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: swift is not on PATH; install Swift 6 first (https://swift.org/install)" >&2
    exit 1
fi

# JavaScriptCore for scripts, SQLite for apps' databases (GRDB builds on the system's).
missing=()
# Loaded with dlopen, not linked: the runtime library is all it takes, no headers.
/sbin/ldconfig -p 2>/dev/null | grep -q 'libjavascriptcoregtk-4\.1\.so\.0 ' || missing+=(libjavascriptcoregtk-4.1-0)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]} with apt" >&2
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" pkg-config >/dev/null
fi
