#!/usr/bin/env bash
# Runs every test (unit, end-to-end through the real binary, schema agreement, DivKit
# conformance), setting up what they need first.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup-tests.sh
# JavaScriptCore replaces Swift's crash handlers; keep a crash from hanging the run.
export SWIFT_BACKTRACE=enable=no
swift build --build-tests
swift test "$@"
