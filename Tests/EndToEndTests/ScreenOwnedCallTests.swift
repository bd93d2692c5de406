import Foundation
import TestSupport
import XCTest

/// Calls made while a screen's handler runs belong to that screen (SPEC §7.2): when it closes
/// they are cancelled, their connections closed, and nothing of theirs runs or is reported.
/// (The headless run waits up to 5 s of real time for the call after `d`, then Esc closes it.)
final class ScreenOwnedCallTests: XCTestCase {
    func testAScreenClosedMidRequestClosesTheConnectionAndItsHandlerNeverRuns() throws {
        let arrived = NSLock()
        nonisolated(unsafe) var requests = 0
        let server = try LoopbackHTTPServer { _ in
            arrived.withLock { requests += 1 }
            return nil // never answers
        }
        defer { server.stop() }
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-owned-calls", [
            "manifest.json": #"{"app": "owned", "version": "1.0.0", "entry": "main.js", "start": "home", "apis": "apis.json", "permissions": ["api"], "screens": {"home": "home.json", "detail": "detail.json"}, "store": {"line": "home"}}"#,
            "home.json": #"{"format": 1, "id": "home", "keys": {"d": {"action": "navigate", "url": "app://detail"}}, "body": {"type": "text", "text": "@{store.line}"}}"#,
            "detail.json": #"{"format": 1, "id": "detail", "onAppear": "load", "keys": {"esc": {"action": "back"}}, "body": {"type": "text", "text": "detail"}}"#,
            "apis.json": #"{"services": {"slow": {"baseURL": "http://127.0.0.1:\#(server.port)"}}, "apis": {"slow.get": {"service": "slow", "path": "/wait"}}}"#,
            "main.js": """
            ui.handler('load', () => api.call('slow.get').then(() => store.set('line', 'answered'), (e) => store.set('line', 'failed ' + e.code)));
            hybrid.ready();
            """,
        ])
        let data = try TemporaryDirectory("hybrid-owned-data")
        let process = try CommandRunner.start("hybrid", ["run", bundle.path, "--headless", "--size", "30x2", "--keys", "d esc"],
                                              in: bundle.url, environment: ["XDG_DATA_HOME": data.path],
                                              output: data.url.appendingPathComponent("out"), errors: data.url.appendingPathComponent("err"))
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        XCTAssertFalse(process.isRunning, "the run ends: the cancelled call holds nothing open")
        if process.isRunning { process.terminate() }
        let frame = (try? String(contentsOf: data.url.appendingPathComponent("out"), encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: data.url.appendingPathComponent("err"), encoding: .utf8)) ?? ""
        XCTAssertEqual(process.terminationStatus, 0, errors)
        XCTAssertEqual(frame.split(separator: "\n").first.map(String.init), "home", "neither handler of the call ran: \(errors)")
        XCTAssertEqual(arrived.withLock { requests }, 1)
        for _ in 0..<300 where server.connectionsClosedByClient == 0 { usleep(10_000) }
        XCTAssertEqual(server.connectionsClosedByClient, 1, "the server saw the connection close")
        XCTAssertFalse(errors.contains("E_CANCELLED"), "nothing of the call is reported: \(errors)")
    }
}
