#!/usr/bin/env bash
# Runs the JavaScript, bridge and service tests under AddressSanitizer (with LeakSanitizer) in a
# build folder of its own. On demand, not in CI: it rebuilds everything (a few minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-tests.sh
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1
swift build --build-tests --sanitize=address --scratch-path .build-asan
log=$(mktemp)
swift test --sanitize=address --scratch-path .build-asan --skip-build \
    --filter 'HybridBridgeTests|HybridJavaScriptTests|HybridServicesTests' >"$log" 2>&1 || true
grep -E 'Executed [0-9]+ tests' "$log" | tail -1
# A test process that dies (a trap, say) stops its whole run: the summary above is then one
# class's, and only the crash says what happened.
if grep -qE 'exited with unexpected signal|with [1-9][0-9]* failures?' "$log"; then
    grep -E 'Fatal error|exited with unexpected signal|: error: ' "$log" | cut -c1-400 | head -20
    echo "tests crashed or failed under AddressSanitizer (full log: $log)"
    exit 1
fi
if grep -q 'ERROR: AddressSanitizer' "$log"; then
    grep -A30 'ERROR: AddressSanitizer' "$log"
    exit 1
fi
# Direct leaks whose stacks reach our own modules. XCTest keeps every test case alive, so what
# tests hold shows up as indirect leaks; libcurl's and JavaScriptCore's process-lifetime
# allocations are direct ones outside our code.
if awk '/^Direct leak/{keep=1} /^Indirect leak/{keep=0} keep' "$log" | grep -E 'Sources/Hybrid(Bridge|JavaScript|Services|EventLoop)/'; then
    echo "leaks in HybridTerm code (full log: $log)"
    exit 1
fi
echo "no memory errors and no leaks in HybridTerm code (full log: $log)"
