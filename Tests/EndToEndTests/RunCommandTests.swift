import Foundation
import TestSupport
import XCTest

/// `hybrid run … --headless` through the real binary: screens, bundle folders, key scripts.
final class RunCommandTests: XCTestCase {
    var data: URL!

    override func setUpWithError() throws {
        data = try makeTemporaryDirectory("hybrid-run")
    }

    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.hybrid(["run"] + arguments, environment: ["XDG_DATA_HOME": data.path])
    }

    func testTheTodoBundleAddsTogglesAndKeepsItsList() throws {
        let first = try run(["samples/todo", "--headless", "--size", "60x9", "--keys", #""Buy tea" enter "Write docs" enter tab tab space"#])
        XCTAssertEqual(first.status, 0, first.standardError)
        XCTAssertEqual(first.standardError, "samples/todo: a development bundle (no manifest.sig); it runs unsigned\n")
        let rows = first.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(rows[0], " ✔ Todo · 2 items")
        XCTAssertEqual(rows[4], " [ ] Buy tea")
        XCTAssertEqual(rows[5], " [x] Write docs")
        // The list was saved with the storage service: a new process shows it, and Ctrl-D
        // clears what is done.
        let second = try run(["samples/todo", "--headless", "--size", "60x9", "--keys", "ctrl+d"])
        let again = second.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(again[0], " ✔ Todo · 1 item")
        XCTAssertEqual(again[4], " [ ] Buy tea")
        XCTAssertEqual(again[5], "")
    }

    func testAScreenFileRunsWithTypingAndFocus() throws {
        let result = try run(["samples/form.json", "--headless", "--size", "80x12", "--keys", #"ctrl+a "Grace" tab end "x""#])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.standardOutput.contains("[Grace"), result.standardOutput)
        XCTAssertTrue(result.standardOutput.contains("ada@example.comx"), result.standardOutput)
    }

    func testBadKeysAndMissingTargetsAreReported() throws {
        let keys = try run(["samples/form.json", "--headless", "--keys", "hyper+x"])
        XCTAssertEqual(keys.status, 2)
        XCTAssertTrue(keys.standardError.contains(#"--keys: unknown key "hyper+x""#), keys.standardError)
        let missing = try run(["samples/nope", "--headless"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.standardError, "samples/nope: no such file or folder\n")
        let notHeadless = try run(["samples/form.json", "--keys", "tab"])
        XCTAssertEqual(notHeadless.status, 2)
    }

    func testABrokenBundleNamesItsProblems() throws {
        let folder = data.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"app": "broken", "version": "1.0", "start": "home", "screens": {"home": "home.json"}}"#
            .write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        let result = try run([folder.path, "--headless"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.standardError.contains("manifest.json:1:"), result.standardError)
        XCTAssertTrue(result.standardError.contains("$.version"), result.standardError)
    }

    func testTheMarqueeIsAComponentAndATimerInJavaScript() throws {
        let resting = "║HybridTerm: screens in JSON, behaviour i║"
        let paused = try run(["samples/marquee", "--headless", "--size", "60x10", "--keys", "space wait:300ms"])
        XCTAssertEqual(paused.status, 0, paused.standardError)
        XCTAssertTrue(paused.standardOutput.contains(resting), paused.standardOutput)
        XCTAssertTrue(paused.standardOutput.contains("Paused: space resumes"))
        let moving = try run(["samples/marquee", "--headless", "--size", "60x10", "--keys", "wait:400ms"])
        XCTAssertFalse(moving.standardOutput.contains(resting), "the timer moved it: \(moving.standardOutput)")
        XCTAssertTrue(moving.standardOutput.contains("╔ Now showing"), moving.standardOutput)
    }
}
