import Foundation
import TestSupport
import XCTest

/// The README's run command as a user types it: from any folder, with paths that mean what
/// they typed, starting at once when the binary is current.
final class ReadmeCommandTests: XCTestCase {
    func testHybridShRunsFromAnotherFolderWithRelativePathsAndNoBuild() throws {
        let folder = try TemporaryDirectory("hybrid-elsewhere")
        defer { folder.remove() }
        try FileManager.default.copyItem(at: CommandRunner.repository.appendingPathComponent("samples/list.json"),
                                         to: folder.url.appendingPathComponent("list.json"))
        let output = folder.url.appendingPathComponent("out")
        let errors = folder.url.appendingPathComponent("err")
        let process = try CommandRunner.start(executable: CommandRunner.repository.appendingPathComponent("hybrid.sh"), ["validate", "list.json"],
                                              in: folder.url, output: output, errors: errors)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "list.json: ok\n")
        // The tests built the binary: nothing to set up or build, so nothing is said.
        XCTAssertEqual(try String(contentsOf: errors, encoding: .utf8), "")
    }

    func testVersion() throws {
        let result = try CommandRunner.hybrid(["--version"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.standardOutput, "hybrid 0.1.0\n")
    }
}
