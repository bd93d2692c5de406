import Foundation
import TestSupport
import XCTest

/// JavaScriptCore is loaded when a script is about to run, not at start: a command that runs
/// none starts without the engine and the libraries it pulls in. The dynamic loader's own
/// report (glibc's `LD_DEBUG=libs`, on standard error) says which libraries a process loaded.
final class EngineLoadingTests: XCTestCase {
    /// The libraries the loader reported initializing, one path per line.
    private func loadedLibraries(_ result: CommandRunner.Result) -> [String] {
        result.standardError.split(separator: "\n").compactMap { line in
            line.range(of: "calling init: ").map { String(line[$0.upperBound...]) }
        }
    }

    func testRenderStartsWithoutJavaScriptCore() throws {
        let result = try CommandRunner.hybrid(["render", "samples/dashboard.json", "--plain"], environment: ["LD_DEBUG": "libs"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertFalse(result.standardOutput.isEmpty)
        let libraries = loadedLibraries(result)
        // The report is there (the Swift runtime is always loaded), and the engine is not in it.
        XCTAssertTrue(libraries.contains { $0.contains("libswiftCore") }, result.standardError)
        XCTAssertEqual(libraries.filter { $0.contains("javascriptcore") }, [])
    }

    func testEvalLoadsJavaScriptCoreToRunItsScript() throws {
        let folder = try makeTemporaryDirectory("hybrid-engine")
        let script = folder.appendingPathComponent("main.js")
        try "console.log(6 * 7)".write(to: script, atomically: true, encoding: .utf8)
        let result = try CommandRunner.hybrid(["eval", script.path], environment: [
            "LD_DEBUG": "libs", "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
        ])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, "42\n")
        XCTAssertEqual(loadedLibraries(result).filter { $0.contains("libjavascriptcoregtk-4.1.so.0") }.count, 1, result.standardError)
    }
}
