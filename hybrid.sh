#!/usr/bin/env bash
# Runs the `hybrid` command line, setting up and building it first when needed:
#   ./hybrid.sh render samples/dashboard.json
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
swift build -q -c release --product hybrid >&2
exec .build/release/hybrid "$@"
