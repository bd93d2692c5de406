import Foundation
import TestSupport
import XCTest

/// What `hybrid run` writes while an app runs reads as one log (issue 12): script output and
/// warnings as plain lines like the problems beside them, each thing once.
final class RunLogTests: XCTestCase {
    func testScriptLinesArePlainAndAPatchWarningIsSaidOnce() throws {
        let bundle = try TemporaryDirectory("hybrid-run-log")
        let files = [
            "manifest.json": #"{"app": "log", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "hi"}}"#,
            "main.js": "console.log('hello there');\nconsole.warn('careful');\npatch.before('service:no.such', () => {});\nhybrid.ready();\n",
        ]
        for (name, text) in files { try text.write(to: bundle.url.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let data = try TemporaryDirectory("hybrid-run-log-data")
        let result = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "20x2"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.standardError)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("hello there"), result.standardError)
        XCTAssertTrue(lines.contains("warning: careful"), result.standardError)
        XCTAssertEqual(lines.filter { $0.contains("patch on service:no.such") }.count, 1, result.standardError)
        XCTAssertFalse(lines.contains { $0.contains("+0000") || $0.contains("[HybridBridge]") }, "no timestamps or module names: \(result.standardError)")
    }
}
