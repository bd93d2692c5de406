#!/usr/bin/env bash
# Builds the `hybrid` binary to ship: optimized, with the Swift runtime and Foundation linked
# in statically, so it starts without resolving their symbols at every launch (a third of
# the start-up time of `hybrid render`, BENCHMARKS.md "Start-up") and runs on a machine
# without Swift. It builds apart from the tests' debug build (its own folder, .build-release,
# as `--static-swift-stdlib` is a build flag, not a package setting), so the first build
# takes several minutes on a small machine. It exports no symbols: `--static-swift-stdlib` links with
# `-export-dynamic`, and the Swift runtime's start-up `dladdr` (finding its backtracer) then
# walks all 46,000 of them, a sixth of `hybrid render`'s start (BENCHMARKS.md "Start-up");
# nothing looks our symbols up at run time (JavaScriptCore is opened apart, RTLD_LOCAL).
# Its relocations are packed (DT_RELR, read by Debian 12's glibc; linked by the toolchain's
# lld, as gold cannot pack them): the loader read 140,000 of them from 3.4 MB of tables at
# every start (`--version` 0.96x). Most of their cost is the pages they write: a
# position-dependent binary would write none (`--version` 0.78x), but would lose address
# randomization for a program that runs downloaded scripts (BENCHMARKS.md "Start-up"):
#   scripts/build-release.sh && .build-release/release/hybrid --version
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
"$repo/scripts/setup.sh"
swift build -c release --static-swift-stdlib --package-path "$repo" --scratch-path "$repo/.build-release" --product hybrid \
    -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic >&2
echo "$repo/.build-release/release/hybrid"
