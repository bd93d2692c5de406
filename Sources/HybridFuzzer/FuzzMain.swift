import Foundation
import HybridFuzz

/// `hybrid-fuzz`: the fuzz targets of `HybridFuzz`.
///
/// Built normally it replays inputs: `hybrid-fuzz TARGET FILE…` feeds each file to the target
/// (how a crash libFuzzer found is reproduced and debugged); `hybrid-fuzz archive-key BASE`
/// writes the archive target's trusted key as `BASE.key`/`BASE.pub`, so seed archives signed
/// with it get past the signature check. Built by `scripts/fuzz.sh` (with
/// `-sanitize=fuzzer -D FUZZING`) it is a libFuzzer binary for the target named by
/// `HYBRID_FUZZ_TARGET`.
enum FuzzMain {
    static func target(named name: String?) -> FuzzTarget {
        guard let name, let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("hybrid-fuzz: name a target: \(names)\n".utf8))
            exit(2)
        }
        return target
    }
}

#if FUZZING
/// Set once, before libFuzzer calls `fuzzOne`.
nonisolated(unsafe) private var selected = FuzzTarget.json

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The executable's entry point under SwiftPM's name for it: hands the run to libFuzzer.
@_cdecl("HybridFuzzer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    selected = FuzzMain.target(named: ProcessInfo.processInfo.environment["HYBRID_FUZZ_TARGET"])
    var argc = argc
    var argv = argv
    return runDriver(&argc, &argv) { data, size in fuzzOne(data, size) }
}

/// libFuzzer's callback, also under the name its own `main` (linked in, though unused) expects.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(data, size)
}

private func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
struct Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "archive-key", arguments.count == 2 {
            do {
                _ = try FuzzTarget.archiveKey.write(to: arguments[1])
            } catch {
                FileHandle.standardError.write(Data("hybrid-fuzz: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        let target = FuzzMain.target(named: arguments.first)
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("hybrid-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            target.run(Array(data))
            print("\(path): ok")
        }
    }
}
#endif
