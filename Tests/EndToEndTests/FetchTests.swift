import Foundation
import TestSupport
import XCTest

/// `fetch`, `AbortController` and top-level `await` (SPEC §3) through the real binary, against
/// servers on loopback: what a web developer writes first works as written.
final class FetchTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-fetch")
    }

    /// Answers `/items` with JSON, echoes `/echo` (method, content type, a header, the body),
    /// says 404 elsewhere, and never answers `/slow`.
    func startServer() throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/items":
                return .init(status: 200, headers: ["Content-Type": "application/json"], body: #"{"items": ["sencha", "assam"]}"#)
            case "/echo":
                let echoed = "\(request.method) \(request.headers["content-type"] ?? "-") \(request.headers["x-token"] ?? "-") \(request.body)"
                return .init(status: 200, body: echoed)
            case "/slow":
                return nil  // no answer until the client hangs up
            default:
                return .init(status: 404, body: "no such thing")
            }
        }
        addTeardownBlock { server.stop() }
        return server
    }

    func eval(_ source: String) throws -> CommandRunner.Result {
        let script = folder.appendingPathComponent("main.js")
        try source.write(to: script, atomically: true, encoding: .utf8)
        return try CommandRunner.hybrid(["eval", script.path], environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path])
    }

    func testFetchGetsPostsAndFailsAsTheWebDoes() throws {
        let server = try startServer()
        let base = "http://127.0.0.1:\(server.port)"
        let result = try eval("""
        const response = await fetch('\(base)/items');
        console.log(response.ok, response.status, response.statusText, response.headers.get('Content-Type'), (await response.json()).items.join(','));
        const posted = await fetch(new Request('\(base)/echo', { method: 'post', headers: { 'X-Token': 't1' }, body: JSON.stringify({ a: 1 }) }));
        console.log(await posted.text());
        const form = await fetch('\(base)/echo', { method: 'PUT', body: new URLSearchParams({ q: 'green tea' }) });
        console.log(await form.text());
        const missing = await fetch('\(base)/nowhere');
        console.log(missing.ok, missing.status, missing.statusText, await missing.text());
        try { await fetch('http://127.0.0.1:\(LoopbackHTTPServer.refusedPort())/'); } catch (error) { console.log(error.name, error.code); }
        try { await fetch('not a url'); } catch (error) { console.log(error.name); }
        try { await fetch('\(base)/items', { body: 'x' }); } catch (error) { console.log(error.message); }
        """)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput.split(separator: "\n").map(String.init), [
            "true 200 OK application/json sencha,assam",
            #"POST text/plain;charset=UTF-8 t1 {"a":1}"#,
            "PUT application/x-www-form-urlencoded;charset=UTF-8 - q=green+tea",
            "false 404 Not Found no such thing",
            "TypeError E_FAILED",
            "TypeError",
            "Request: a GET request cannot have a body",
        ], result.standardError)
    }

    /// An abort rejects at once with the signal's reason and closes the connection in flight.
    func testAnAbortControllerStopsAFetchAndAServiceCall() throws {
        let server = try startServer()
        let result = try eval("""
        const controller = new AbortController();
        const pending = fetch('http://127.0.0.1:\(server.port)/slow', { signal: controller.signal });
        setTimeout(() => controller.abort(), 100);
        try { await pending; console.log('answered'); } catch (error) { console.log(error.name); }
        const call = hybrid.call('net.request', { url: 'http://127.0.0.1:\(server.port)/slow' }, { signal: AbortSignal.timeout(100) });
        try { await call; console.log('answered'); } catch (error) { console.log(error.name); }
        """)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput, "AbortError\nTimeoutError\n", result.standardError)
        let deadline = Date().addingTimeInterval(10)
        while server.connectionsClosedByClient < 2 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(server.connectionsClosedByClient, 2, "both connections were closed, not left running")
    }

    /// The issue's own sentence, in a bundle's entry script: the screen shows the items, and an
    /// api.call aborted by its signal rejects.
    func testTopLevelAwaitInAnEntryScriptFillsTheStore() throws {
        let server = try startServer()
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-fetch-bundle", [
            "manifest.json": #"{"app": "fetcher", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "apis": "apis.json", "permissions": ["net.request", "api"], "store": {"items": [], "line": ""}}"#,
            "apis.json": #"{"services": {"shop": {"baseURL": "http://127.0.0.1:\#(server.port)"}}, "apis": {"shop.slow": {"service": "shop", "path": "/slow"}}}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "column", "children": [{"type": "text", "text": "@{store.line}"}, {"type": "list", "items": "@{store.items}", "template": {"type": "text", "text": "@{item}"}}]}}"#,
            "main.js": """
            const r = await fetch('http://127.0.0.1:\(server.port)/items'); store.set('items', (await r.json()).items)
            try { await api.call('shop.slow', {}, { signal: AbortSignal.timeout(50) }); } catch (error) { store.set('line', `slow: ${error.name}`); }
            hybrid.ready();
            """,
        ])
        let run = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "30x4"], environment: ["XDG_DATA_HOME": folder.path, "XDG_CACHE_HOME": folder.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }, ["slow: TimeoutError", "sencha", "assam"], run.standardError)
        let validate = try CommandRunner.hybrid(["validate", bundle.path])
        XCTAssertEqual(validate.status, 0, "validate accepts top-level await in the entry: \(validate.standardError)")
    }

    /// fetch is net.request: without its permission the bundle's fetch is refused, and says so.
    func testFetchNeedsThePermissionNetRequest() throws {
        let server = try startServer()
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-fetch-denied", [
            "manifest.json": #"{"app": "denied", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "store": {"line": ""}}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "@{store.line}"}}"#,
            "main.js": "try { await fetch('http://127.0.0.1:\(server.port)/items'); } catch (error) { store.set('line', `${error.name} ${error.code}`); }\nhybrid.ready();\n",
        ])
        let run = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "30x1"], environment: ["XDG_DATA_HOME": folder.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), "TypeError E_DENIED", run.standardError)
    }

    func testTopLevelAwaitFailuresAreLocated() throws {
        let rejected = try eval("console.log('before');\nawait Promise.resolve();\nthrow new Error('after the await');\n")
        XCTAssertEqual(rejected.status, 1)
        XCTAssertEqual(rejected.standardOutput, "before\n")
        XCTAssertTrue(rejected.standardError.hasPrefix("\(folder.appendingPathComponent("main.js").path):3:"), rejected.standardError)
        XCTAssertTrue(rejected.standardError.contains("after the await"), rejected.standardError)

        try "module.exports = await Promise.resolve(1);\n".write(to: folder.appendingPathComponent("lib.js"), atomically: true, encoding: .utf8)
        let required = try eval("require('./lib.js');\n")
        XCTAssertEqual(required.status, 1)
        XCTAssertTrue(required.standardError.contains("top-level await works in a bundle's entry script only, and this file is loaded by require"), required.standardError)
    }
}
