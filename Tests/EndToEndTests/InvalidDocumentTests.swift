import Foundation
import TestSupport
import Testing
import XCTest

/// Every kind of broken document gets its exact, located errors from `hybrid validate`, and
/// `hybrid render` never crashes on it: one case per fixture.
@Suite struct InvalidDocumentFixtureTests {
    static let folder = "Tests/Fixtures/invalid"

    static func fixtures() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: CommandRunner.repository.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func everyKindIsCovered() throws {
        #expect(try Self.fixtures().count >= 20)
    }

    @Test(arguments: try fixtures())
    func getsItsExactErrors(fixture: String) throws {
        let path = "\(Self.folder)/\(fixture)"
        let result = try CommandRunner.hybrid(["validate", path])
        let expected = try String(contentsOf: CommandRunner.repository.appendingPathComponent(path.replacingOccurrences(of: ".json", with: ".expected")), encoding: .utf8)
        #expect(result.standardError == expected)
        #expect(result.standardError.hasPrefix(path + ":"), "errors are located")
        // An unknown component is only a warning: a script or Swift may register it.
        #expect(result.status == (fixture.contains("unknown-component") ? 0 : 1))
    }

    @Test(arguments: try fixtures())
    func rendersWithoutCrashing(fixture: String) throws {
        let result = try CommandRunner.hybrid(["render", "\(Self.folder)/\(fixture)", "--size", "60x12"])
        #expect([0, 1].contains(result.status), "exited \(result.status): \(result.standardError)")
        #expect(!result.standardError.isEmpty, "its problem is reported")
    }
}

/// Broken documents among good ones, and the marks a broken node leaves.
final class InvalidDocumentTests: XCTestCase {
    static let folder = InvalidDocumentFixtureTests.folder

    func testABrokenNodeIsMarkedInPlaceAndTheRestRenders() throws {
        let result = try CommandRunner.hybrid(["render", "\(Self.folder)/07-unknown-node-type.json", "--size", "40x3"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardOutput, "Press the button\n[!] unknown type \"buton\"\n\n")
    }

    func testMultipleFilesAreAllChecked() throws {
        let result = try CommandRunner.hybrid(["validate", "samples/form.json", "\(Self.folder)/05-unknown-format-version.json", "samples/list.json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardOutput, "samples/form.json: ok\nsamples/list.json: ok\n")
    }

    func testBundleFoldersAndManifestsAreCheckedToo() throws {
        let ok = try CommandRunner.hybrid(["validate", "samples/todo", "samples/todo/manifest.json"])
        XCTAssertEqual(ok.status, 0, ok.standardError)
        XCTAssertEqual(ok.standardOutput, "samples/todo: ok\nsamples/todo/manifest.json: ok\n")
        let broken = try CommandRunner.hybrid(["validate", "Tests/Fixtures/manifests/invalid/06-start-not-a-screen.json"])
        XCTAssertEqual(broken.status, 1)
        let fixture = "Tests/Fixtures/manifests/invalid/06-start-not-a-screen"
        let expected = try String(contentsOf: CommandRunner.repository.appendingPathComponent(fixture + ".expected"), encoding: .utf8)
        XCTAssertEqual(broken.standardError, expected.replacingOccurrences(of: "manifest.json:", with: fixture + ".json:"))
    }

    func testALatin1FileIsALocatedErrorAndAByteOrderMarkIsAccepted() throws {
        let folder = try makeTemporaryDirectory("hybrid-encodings")
        let latin1 = folder.appendingPathComponent("latin1.json")
        try Data(Array(#"{"format": 1, "id": "x", "body": {"type": "text", "text": "caf"#.utf8) + [0xE9] + Array(#""}}"#.utf8)).write(to: latin1)
        let bom = folder.appendingPathComponent("bom.json")
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"format": 1, "id": "x", "body": {"type": "text", "text": "café"}}"#.utf8)).write(to: bom)
        let result = try CommandRunner.hybrid(["validate", latin1.path, bom.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardOutput, "\(bom.path): ok\n")
        XCTAssertEqual(result.standardError, "\(latin1.path):1:63: $: invalid JSON: invalid UTF-8: byte 0xe9 begins a 3-byte character but 0x22 follows (is the file UTF-8?)\n")
    }
}
