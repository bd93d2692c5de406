import Foundation
import TestSupport
import XCTest

/// The developer console through the real binary (issue 15): the bottom row says where the
/// whole message is, F12 (or ctrl+\) shows every console line and problem in full with its
/// time, a development bundle's start error shows whole over the screen, and `--log FILE`
/// keeps it all.
final class DevConsoleTests: XCTestCase {
    var bundle: URL!
    var data: URL!

    override func setUpWithError() throws {
        bundle = try makeTemporaryDirectory("hybrid-console")
        data = try makeTemporaryDirectory("hybrid-console-data")
    }

    func write(script: String) throws {
        let files = [
            "manifest.json": #"{"app": "console", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#,
            "home.json": #"{"format": 1, "id": "home", "keys": {"x": "boom"}, "body": {"type": "text", "text": "the screen"}}"#,
            "main.js": script,
        ]
        for (name, text) in files { try text.write(to: bundle.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    }

    func run(_ keys: String, size: String = "60x12", extra: [String] = []) throws -> [String] {
        let result = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", size, "--keys", keys] + extra, environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.standardError)
        return result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static let script = """
    console.log('starting up');
    console.warn('the cache is cold');
    function explode() { null.x; }
    ui.handler('boom', () => explode());
    hybrid.ready();
    """

    func testF12ShowsEveryLineInFullAndClosesWithTheSameKey() throws {
        try write(script: Self.script)
        let path = bundle.appendingPathComponent("main.js").path
        let failed = try run("x")
        XCTAssertTrue(failed[11].hasSuffix("… F12: details"), "the bottom row says where the rest is: \(failed[11])")

        let open = try run("x f12", size: "200x16")
        let panel = Array(open.suffix(6)).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(panel[0].hasPrefix("console · 4 entries · newest"), panel.joined(separator: "\n"))
        XCTAssertEqual(Array(panel[1...]), [
            "00:00.000 starting up",
            "00:00.000 warn: the cache is cold",
            "00:00.000 problem: \(path):3:26: TypeError: null is not an object (evaluating 'null.x')",
            "at explode@\(path):3:26",
            "at @\(path):4:33",
        ].map { $0.trimmingCharacters(in: .whitespaces) }, open.joined(separator: "\n"))

        XCTAssertEqual(try run("x f12 up up up up"), try run("x ctrl+\\ up up up up"), "ctrl+\\ opens it too")
        // Six lines, five shown: scrolling stops at the oldest, the development-bundle warning.
        let scrolled = try run("x f12 up up", size: "200x16").suffix(6).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(scrolled[0].contains("1 line up"), scrolled.joined(separator: "\n"))
        XCTAssertEqual(scrolled[1], "00:00.000 warn: \(bundle.path): a development bundle (no manifest.sig); it runs unsigned")
        XCTAssertEqual(scrolled.last, "at explode@\(path):3:26")

        let closed = try run("x f12 f12")
        XCTAssertEqual(closed[0].trimmingCharacters(in: .whitespaces), "the screen")
        XCTAssertFalse(closed.contains { $0.contains("console ·") }, closed.joined(separator: "\n"))
    }

    func testADevelopmentBundlesStartErrorShowsWholeUntilEsc() throws {
        try write(script: "await Promise.resolve();\nfunction load() { throw new Error('the settings have no \"items\"'); }\nload();\nhybrid.ready();\n")
        let path = bundle.appendingPathComponent("main.js").path
        let box = try run("", size: "200x10").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(box[0], "The bundle failed while starting")
        XCTAssertEqual(Array(box[2...4]), [
            "\(path):2:34: Error: the settings have no \"items\"",
            "at load@\(path):2:34",
            "at @\(path):3:5",
        ], box.joined(separator: "\n"))
        XCTAssertEqual(box[9], "esc: dismiss · F12: the console")
        let dismissed = try run("esc", size: "200x10")
        XCTAssertEqual(dismissed[0].trimmingCharacters(in: .whitespaces), "the screen")
        XCTAssertTrue(dismissed[9].contains("Error: the settings have no \"items\""), dismissed[9])
    }

    func testLogWritesEverythingToAFile() throws {
        try write(script: Self.script)
        let log = data.appendingPathComponent("run.log")
        _ = try run("x", extra: ["--log", log.path])
        _ = try run("", extra: ["--log", log.path])
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let entries = lines.map { $0.replacingOccurrences(of: #"^\S+ \+[0-9.]+s "#, with: "", options: .regularExpression) }
        XCTAssertEqual(entries.filter { $0.hasPrefix("log: ") }, ["log: starting up", "log: starting up"], "appended, run after run")
        XCTAssertTrue(entries.contains("warn: the cache is cold"), lines.joined(separator: "\n"))
        XCTAssertTrue(entries.contains { $0.hasPrefix("problem: ") && $0.contains("TypeError: null is not an object") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("        at explode@") }, "the stack, indented: \(lines.joined(separator: "\n"))")
        let refused = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--log", "/nonexistent/folder/run.log"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.standardError.contains("--log /nonexistent/folder/run.log: cannot create the file"), refused.standardError)
    }
}
