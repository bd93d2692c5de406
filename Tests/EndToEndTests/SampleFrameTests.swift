import Foundation
import TestSupport
import Testing
import XCTest

/// Every sample screen renders, through the real binary, to its exact golden frames: the
/// plain rows, and the styled frame (`NAME.styled.txt`) a truecolor terminal shows for `--ansi`.
/// One case per sample.
@Suite struct SampleGoldenTests {
    static let sizes = ["peer-scene": "120x40"]

    static func samples() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: CommandRunner.repository.appendingPathComponent("samples").path)
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func thereAreSamples() throws {
        #expect(try Self.samples().count >= 8)
    }

    @Test(arguments: try samples())
    func rendersItsGoldenFrames(sample: String) throws {
        let name = String(sample.dropLast(5))
        let size = Self.sizes[name] ?? "80x24"
        let result = try CommandRunner.hybrid(["render", "samples/\(sample)", "--size", size, "--plain"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "")
        let rows = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(rows.count == Int(size.split(separator: "x")[1]), "one line per row")
        try expectGolden(result.standardOutput, name + ".txt")
        try expectGolden(try styledFrame(of: sample, size: size, plainRows: rows), name + ".styled.txt")
    }

    func expectGolden(_ actual: String, _ file: String) throws {
        let golden = CommandRunner.repository.appendingPathComponent("Tests/EndToEndTests/Goldens/" + file)
        if let mismatch = try CommandRunner.goldenMismatch(actual, golden) { Issue.record(Comment(rawValue: mismatch)) }
    }

    /// Replays the `--ansi` output on a terminal model; the frame it shows, styles and all.
    func styledFrame(of sample: String, size: String, plainRows: [String]) throws -> String {
        let result = try CommandRunner.hybrid(["render", "samples/\(sample)", "--size", size, "--ansi"],
                                              environment: ["COLORTERM": "truecolor", "TERM": "xterm-256color", "NO_COLOR": ""])
        #expect(result.status == 0, "\(result.standardError)")
        let dimensions = size.split(separator: "x").compactMap { Int($0) }
        var terminal = TerminalModel(width: dimensions[0], height: dimensions[1])
        // A terminal's line discipline turns each line end into a carriage return and a line feed.
        terminal.feed(Array(result.standardOutput.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        #expect(terminal.lines() == plainRows, "the styled frame shows the plain one")
        return StyledFrame.text(of: terminal.screen) + "\n"
    }
}

/// `render`'s options and failures.
final class SampleFrameTests: XCTestCase {
    func testRenderAppliesAStateFile() throws {
        let folder = try makeTemporaryDirectory("hybrid-state")
        let state = folder.appendingPathComponent("state.json")
        try #"{"header": "Changed by --state"}"#.write(to: state, atomically: true, encoding: .utf8)
        let result = try CommandRunner.hybrid(["render", "samples/peer-scene.json", "--size", "40x3", "--state", state.path])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput.split(separator: "\n").first, "Changed by --state")
    }

    func testAnsiOutputCarriesStylesAndNoColorRemovesColours() throws {
        let colored = try CommandRunner.hybrid(["render", "samples/peer-scene.json", "--size", "60x3", "--ansi"],
                                               environment: ["COLORTERM": "truecolor", "TERM": "xterm-256color", "NO_COLOR": ""])
        XCTAssertEqual(colored.status, 0)
        XCTAssertTrue(colored.standardOutput.contains("\u{1B}[1m"), "bold header")
        XCTAssertTrue(colored.standardOutput.contains("38;2;255;136;0"), "truecolor #ff8800")
        let plain = try CommandRunner.hybrid(["render", "samples/peer-scene.json", "--size", "60x3", "--ansi"],
                                             environment: ["COLORTERM": "truecolor", "TERM": "xterm-256color", "NO_COLOR": "1"])
        XCTAssertFalse(plain.standardOutput.contains("38;"), "NO_COLOR drops colours")
        XCTAssertTrue(plain.standardOutput.contains("\u{1B}[1m"), "NO_COLOR keeps attributes")
    }

    func testUsageErrorsExitWithTwo() throws {
        XCTAssertEqual(try CommandRunner.hybrid(["render"]).status, 2)
        XCTAssertEqual(try CommandRunner.hybrid(["render", "samples/form.json", "--size", "wide"]).status, 2)
        XCTAssertEqual(try CommandRunner.hybrid(["frobnicate"]).status, 2)
        XCTAssertEqual(try CommandRunner.hybrid(["--help"]).status, 0)
    }

    func testMissingFileIsAUserError() throws {
        let result = try CommandRunner.hybrid(["render", "samples/nope.json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError, "samples/nope.json:1:1: $: cannot read the file: no such file or directory\n")
    }
}
