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
        FileManager.default.createFile(atPath: output.path, contents: nil)
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = CommandRunner.repository.appendingPathComponent("hybrid.sh")
        process.arguments = ["validate", "list.json"]
        process.currentDirectoryURL = folder.url
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
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
