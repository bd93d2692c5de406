#!/usr/bin/env bash
# Runs every test (unit, end-to-end through the real binary, schema agreement, DivKit
# conformance), setting up what they need first.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup-tests.sh
# JavaScriptCore replaces Swift's crash handlers; keep a crash from hanging the run.
export SWIFT_BACKTRACE=enable=no
swift build --build-tests
# The build is current now, but it relinks a program only when its code changed: after an edit
# that changed no code (a comment), hybrid.sh and shop-demo.sh, which tests run, would find a
# source newer than their program and build it again, waiting on the SwiftPM that runs them.
touch -c .build/debug/hybrid .build/debug/shop-demo
swift test "$@"
