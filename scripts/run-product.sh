#!/usr/bin/env bash
# Runs a product of the package, setting up and building it first when needed:
#   scripts/run-product.sh hybrid render samples/dashboard.json
set -euo pipefail
product="$1"
shift
cd "$(dirname "$0")/.."
scripts/setup.sh
# A debug build: it shares what ./test.sh builds, and a release build of SwiftNIO (for
# `hybrid serve`) costs many minutes on a small machine for no visible gain in a terminal app.
swift build -q --product "$product" >&2
exec ".build/debug/$product" "$@"
