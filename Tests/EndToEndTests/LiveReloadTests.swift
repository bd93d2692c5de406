import Foundation
import TestSupport
import XCTest

/// `hybrid run http://…/NAME/` against a real `hybrid serve`: edits to the served folder reload
/// in the running app; a broken edit is shown in place and the app keeps what it had.
final class LiveReloadTests: XCTestCase {
    var folder: URL!
    var server: Process!
    var serverLog: URL!
    var port = 0

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("live-reload")
        let bundle = folder.appendingPathComponent("site/hello")
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("screens"), withIntermediateDirectories: true)
        try #"{"app": "hello", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "screens/home.json"}}"#
            .write(to: bundle.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        try "hybrid.ready();\n".write(to: bundle.appendingPathComponent("main.js"), atomically: true, encoding: .utf8)
        try writeScreen("Hello v1")
        (server, serverLog) = try start(["serve", folder.appendingPathComponent("site").path, "--port", "0"], name: "serve")
        port = try waitForPort()
    }

    override func tearDownWithError() throws {
        server.terminate()
        server.waitUntilExit()
    }

    func writeScreen(_ text: String) throws {
        try #"{"format": 1, "id": "home", "body": {"type": "text", "text": "\#(text)"}}"#
            .write(to: folder.appendingPathComponent("site/hello/screens/home.json"), atomically: true, encoding: .utf8)
    }

    /// Starts the built `hybrid` with `arguments`, its output going to `NAME.out` and `NAME.err`.
    func start(_ arguments: [String], name: String) throws -> (Process, URL) {
        let errors = folder.appendingPathComponent(name + ".err")
        let process = try CommandRunner.start("hybrid", arguments, in: folder,
                                              environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                                                            "XDG_DATA_HOME": folder.appendingPathComponent("data").path],
                                              output: folder.appendingPathComponent(name + ".out"), errors: errors)
        return (process, errors)
    }

    func text(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// Waits until `condition` holds (checked every 50 ms), failing after `limit` seconds (only
    /// a stalled machine takes more than a few).
    func eventually(_ what: String, limit: Double = 90, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(limit)
        while !condition() {
            guard Date() < deadline else {
                throw NSError(domain: "LiveReloadTests", code: 1, userInfo: [NSLocalizedDescriptionKey:
                    "gave up waiting for \(what)\n--- serve ---\n\(text("serve.err"))\n--- run ---\n\(text("run.err"))"])
            }
            usleep(50_000)
        }
    }

    func waitForPort() throws -> Int {
        var port: Int?
        try eventually("hybrid serve to print its address") {
            let first = text("serve.out").split(separator: "\n").first.map(String.init) ?? ""
            port = first.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "/"))) }
            return port != nil
        }
        return port!
    }

    /// Runs the app headless for `seconds`; once it is watching, applies `edit`; returns the
    /// final frame and standard error.
    func runWhileEditing(seconds: Int, _ edit: () throws -> Void) throws -> (frame: String, errors: String) {
        let (app, _) = try start(["run", "http://127.0.0.1:\(port)/hello/", "--headless", "--size", "100x4", "--keys", "wait:\(seconds * 1000)ms"], name: "run")
        // Once the app has its copy, any later edit bumps the served generation past the one
        // its watch started from (the server logs a long poll only when it answers).
        try eventually("the app to fetch the bundle") { text("serve.err").contains("GET /hello/screens/home.json") }
        try edit()
        app.waitUntilExit()
        XCTAssertEqual(app.terminationStatus, 0, text("run.err"))
        return (text("run.out"), text("run.err"))
    }

    func testAnEditedScreenReloadsInTheRunningApp() throws {
        let (frame, errors) = try runWhileEditing(seconds: 6) { try writeScreen("Hello v2") }
        XCTAssertEqual(frame.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces), "Hello v2", frame)
        XCTAssertTrue(errors.contains("a development bundle (unsigned); it reloads"), errors)
    }

    func testAScriptWithASyntaxErrorIsShownAtOnceAndTheLastGoodOneKeepsRunning() throws {
        try "ui.handler('load', () => state.set('who', 'the first script'));\nhybrid.ready();\n"
            .write(to: folder.appendingPathComponent("site/hello/main.js"), atomically: true, encoding: .utf8)
        try #"{"format": 1, "id": "home", "state": {"who": "nobody"}, "onAppear": "load", "body": {"type": "text", "text": "Hello from @{who}"}}"#
            .write(to: folder.appendingPathComponent("site/hello/screens/home.json"), atomically: true, encoding: .utf8)
        let (frame, _) = try runWhileEditing(seconds: 6) {
            try "ui.handler('load', () => {\nhybrid.ready();\n"
                .write(to: folder.appendingPathComponent("site/hello/main.js"), atomically: true, encoding: .utf8)
        }
        let rows = frame.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(rows.first?.trimmingCharacters(in: .whitespaces), "Hello from the first script", frame)
        XCTAssertTrue(rows[3].hasPrefix("http://127.0.0.1:\(port)/hello/main.js:"), "the served file, on the status line: \(frame)")
        XCTAssertTrue(rows[3].contains("SyntaxError"), frame)
    }

    func testAReloadKeepsTheScreensStateAndTheStore() throws {
        try "ui.handler('load', () => { if (store.get('runs') === null) state.set('who', 'the first run'); store.set('runs', (store.get('runs') || 0) + 1); });\nhybrid.ready();\n"
            .write(to: folder.appendingPathComponent("site/hello/main.js"), atomically: true, encoding: .utf8)
        try #"{"format": 1, "id": "home", "state": {"who": "nobody"}, "onAppear": "load", "body": {"type": "text", "text": "v1 @{who}"}}"#
            .write(to: folder.appendingPathComponent("site/hello/screens/home.json"), atomically: true, encoding: .utf8)
        let (frame, errors) = try runWhileEditing(seconds: 6) {
            try #"{"format": 1, "id": "home", "state": {"who": "nobody"}, "onAppear": "load", "body": {"type": "text", "text": "v2 @{who}, run @{store.runs}"}}"#
                .write(to: folder.appendingPathComponent("site/hello/screens/home.json"), atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(frame.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces), "v2 the first run, run 2", "\(frame)\n\(errors)")
    }

    func testABrokenEditIsShownInPlaceAndTheAppKeepsRunning() throws {
        let (frame, errors) = try runWhileEditing(seconds: 6) {
            try #"{"format": 1, "id": "home", "body": {"type": "txet", "text": "broken"}}"#
                .write(to: folder.appendingPathComponent("site/hello/screens/home.json"), atomically: true, encoding: .utf8)
        }
        let rows = frame.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(rows.first?.trimmingCharacters(in: .whitespaces), "Hello v1", frame)
        XCTAssertTrue(rows[3].hasPrefix("http://127.0.0.1:\(port)/hello/screens/home.json:1:"), "the error is on the status line: \(frame)")
        XCTAssertTrue(errors.contains(#"unknown node type "txet""#) || errors.contains("txet"), errors)
    }

    /// A served file that becomes a folder of the same name, and back: each run's copy follows.
    /// The old file stood in the way of the new folder (and the reverse) in the copy for good,
    /// so every later run failed until the cache was deleted by hand.
    func testAFileThatBecomesAFolderAndBackIsFollowedByTheCopy() throws {
        let assets = folder.appendingPathComponent("site/hello/assets")
        let environment = ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path]
        func run() throws {
            let result = try CommandRunner.hybrid(["run", "http://127.0.0.1:\(port)/hello/", "--headless", "--size", "40x2"], environment: environment)
            XCTAssertEqual(result.status, 0, result.standardError)
            XCTAssertEqual(result.standardOutput.split(separator: "\n").first.map(String.init), "Hello v1", result.standardError)
        }
        try "a file".write(to: assets, atomically: true, encoding: .utf8)
        try run()
        try FileManager.default.removeItem(at: assets)
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try "in a folder".write(to: assets.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try run()
        try FileManager.default.removeItem(at: assets)
        try "a file again".write(to: assets, atomically: true, encoding: .utf8)
        try run()
    }
}
