import Foundation
import TestSupport
import XCTest

/// Data blocks (SPEC §7.4) through the real binary against a loopback server: a screen that
/// lists an API's results with a loading row and an error row, with no script at all; a block
/// loading again when a bound param changes, through the API's in-flight policy; the `reload`
/// action with its next page; a reformer; a screen closed mid-load.
final class DataBlockTests: XCTestCase {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var requests: [LoopbackHTTPServer.Request] = []
        func add(_ request: LoopbackHTTPServer.Request) { lock.withLock { requests.append(request) } }
        var paths: [String] { lock.withLock { requests.map(\.path) } }
    }

    /// Items named by `q`, two to a page; "slow" never answers, "broken" answers 500.
    static func server(_ log: Log) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            log.add(request)
            let query = URLComponents(string: request.path)?.queryItems ?? []
            let q = query.first { $0.name == "q" }?.value ?? ""
            let page = Int(query.first { $0.name == "page" }?.value ?? "1") ?? 1
            if q == "broken" { return .init(status: 500, headers: ["Content-Type": "application/json"], body: #"{"error": "down"}"#) }
            if q == "slow" { return nil }
            let names = ["Sencha", "Earl Grey", "Rooibos"].filter { q.isEmpty || $0.lowercased().contains(q.lowercased()) }
            let slice = names.dropFirst((page - 1) * 2).prefix(2)
            let items = slice.map { #"{"name": "\#($0)"}"# }.joined(separator: ", ")
            return .init(status: 200, headers: ["Content-Type": "application/json"], body: #"{"items": [\#(items)]}"#)
        }
    }

    static let screen = """
    {"format": 1, "id": "home", "state": {"query": ""},
     "data": {"items": {"api": "items.list", "params": {"q": "@{query}"}}},
     "keys": {"ctrl+n": {"action": "reload", "data": "items", "page": "next"}, "ctrl+r": {"action": "reload", "data": "items"}},
     "body": {"type": "column", "children": [
       {"type": "input", "id": "q", "value": "@{query}", "autofocus": true},
       {"type": "text", "text": "loading…", "visible": "@{items.status == 'loading'}"},
       {"type": "text", "text": "@{items.error.code} @{items.error.status}", "visible": "@{items.status == 'error'}"},
       {"type": "text", "text": "page @{items.page} last @{items.lastPage} cache @{items.fromCache}", "visible": "@{items.status == 'ok'}"},
       {"type": "list", "visible": "@{items.page > 0}", "items": "@{items.data.items}", "template": {"type": "text", "text": "@{item.name}"}}]}}
    """

    func run(_ keys: String, screen: String = screen, entry: String? = nil, inFlight: String = "parallel",
             log: Log, server: LoopbackHTTPServer) throws -> (lines: [String], errors: String) {
        var manifest = #"{"app": "data", "version": "1.0.0", "start": "home", "screens": {"home": "home.json"}, "apis": "apis.json", "permissions": ["api"]"#
        var files = [
            "home.json": screen,
            "apis.json": """
            {"services": {"shop": {"baseURL": "http://127.0.0.1:\(server.port)/v1"}},
             "apis": {"items.list": {"service": "shop", "path": "/items", "inFlight": "\(inFlight)",
                                     "params": {"q": {"type": "string"}, "page": {"type": "integer", "default": 1}},
                                     "paging": {"param": "page", "items": "items"}}}}
            """,
        ]
        if let entry {
            manifest += #", "entry": "main.js""#
            files["main.js"] = entry
        }
        files["manifest.json"] = manifest + "}"
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-data-blocks", files)
        let data = try TemporaryDirectory("hybrid-data-blocks-data")
        let result = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "40x6", "--keys", keys], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.standardError)
        // The input's brackets go: what matters is what it holds.
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: " []")) }
        return (lines, result.standardError)
    }

    func testAScreenListsAnAPIsResultsWithNoScript() throws {
        let log = Log()
        let server = try Self.server(log)
        defer { server.stop() }
        let (lines, errors) = try run("wait:100ms", log: log, server: server)
        XCTAssertEqual(Array(lines.prefix(4)), ["", "page 1 last false cache false", "Sencha", "Earl Grey"], errors)
        XCTAssertEqual(log.paths, ["/v1/items?page=1&q="])

        // The next page is appended; after a page shorter than the first, the last.
        let (paged, _) = try run("wait:100ms ctrl+n wait:100ms", log: log, server: server)
        XCTAssertEqual(Array(paged.prefix(5)), ["", "page 2 last true cache false", "Sencha", "Earl Grey", "Rooibos"])
    }

    func testTypingLoadsAgainAndAnErrorShowsItsRow() throws {
        let log = Log()
        let server = try Self.server(log)
        defer { server.stop() }
        let (lines, errors) = try run("wait:100ms r o o wait:100ms", log: log, server: server)
        XCTAssertEqual(Array(lines.prefix(3)), ["roo", "page 1 last false cache false", "Rooibos"], errors)
        XCTAssertTrue(log.paths.contains("/v1/items?page=1&q=roo"), "\(log.paths)")

        let (broken, _) = try run("wait:100ms b r o k e n wait:100ms", log: log, server: server)
        XCTAssertEqual(Array(broken.prefix(2)), ["broken", "E_HTTP 500"], "the data shown before stays under the error row")
    }

    func testCancelPreviousDropsTheSlowLoadForTheNewOne() throws {
        let log = Log()
        let server = try Self.server(log)
        defer { server.stop() }
        // Each keystroke loads; "slow" is still in flight when the field is cleared and "earl"
        // typed, and with cancelPrevious only the last answer shows, its connection closed.
        let (lines, errors) = try run("wait:100ms s l o w wait:50ms backspace backspace backspace backspace e a r l wait:500ms", inFlight: "cancelPrevious", log: log, server: server)
        XCTAssertEqual(Array(lines.prefix(3)), ["earl", "page 1 last false cache false", "Earl Grey"], errors)
        for _ in 0..<100 where server.connectionsClosedByClient == 0 { usleep(10_000) }
        XCTAssertGreaterThanOrEqual(server.connectionsClosedByClient, 1, "the slow load's connection was closed")
    }

    func testAReformerShapesTheBlocksData() throws {
        let log = Log()
        let server = try Self.server(log)
        defer { server.stop() }
        let screen = Self.screen.replacingOccurrences(of: #""params": {"q": "@{query}"}}"#, with: #""params": {"q": "@{query}"}, "reformer": "names"}"#)
            .replacingOccurrences(of: "@{items.data.items}", with: "@{items.data}")
            .replacingOccurrences(of: "@{item.name}", with: "@{item}")
        let (lines, errors) = try run("wait:100ms", screen: screen, entry: """
            api.reformer('names', (data) => data.items.map((item) => item.name.toUpperCase()));
            """, log: log, server: server)
        XCTAssertEqual(Array(lines.prefix(4)), ["", "page 1 last false cache false", "SENCHA", "EARL GREY"], errors)
    }

    func testValidateNamesAReloadOfNoBlockAndABadBlock() throws {
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-data-invalid", [
            "home.json": """
            {"format": 1, "id": "home",
             "data": {"items": {"api": "items.list", "params": {"q": "@{query}"}}, "params": {"api": "x"}, "both": {"api": "a", "sql": "b"}},
             "keys": {"r": {"action": "reload", "data": "itemz"}},
             "body": {"type": "text", "text": "x"}}
            """,
        ])
        let result = try CommandRunner.hybrid(["validate", bundle.url.appendingPathComponent("home.json").path])
        XCTAssertEqual(result.status, 1)
        let lines = result.standardError.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        XCTAssertEqual(lines, [
            #"$.data.params: the data block name "params" is a part of every screen's state"#,
            #"$.data.both: a data block has "api" or "sql", not both"#,
            #"$.keys.r.data: no data block named "itemz" on this screen; did you mean "items"?"#,
        ], result.standardError)
    }

    /// In a bundle, validate knows the APIs and the scripts: a block naming no declared API is
    /// an error, a reformer no script registers a warning.
    func testValidateChecksBlocksAgainstTheBundlesAPIsAndReformers() throws {
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-data-bundle", [
            "manifest.json": #"{"app": "data", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "apis": "apis.json", "permissions": ["api"]}"#,
            "home.json": #"{"format": 1, "id": "home", "data": {"items": {"api": "items.lst", "reformer": "rowz"}}, "body": {"type": "text", "text": "x"}}"#,
            "apis.json": #"{"services": {"shop": {"baseURL": "http://127.0.0.1:1/v1"}}, "apis": {"items.list": {"service": "shop", "path": "/items"}}}"#,
            "main.js": "api.reformer('rows', (data) => data);",
        ])
        let result = try CommandRunner.hybrid(["validate", bundle.path])
        XCTAssertEqual(result.status, 1)
        let lines = result.standardError.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        XCTAssertEqual(lines, [
            #"$.data.items.api: no API named "items.lst" in the bundle's apis file; did you mean "items.list"?"#,
            #"$.data.items.reformer: warning: no script registers a reformer named "rowz" (api.reformer("rowz", fn)); did you mean "rows"?"#,
        ], result.standardError)
    }

    /// A screen closed while its block loads: the connection closes, nothing is reported, and
    /// the screen below is as it was.
    func testAScreenClosedMidLoadClosesItsConnection() throws {
        let log = Log()
        let server = try Self.server(log)
        defer { server.stop() }
        let screen = Self.screen.replacingOccurrences(of: #""keys": {"#, with: #""keys": {"ctrl+d": {"action": "navigate", "url": "app://detail"}, "#)
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-data-closed", [
            "manifest.json": #"{"app": "data", "version": "1.0.0", "start": "home", "screens": {"home": "home.json", "detail": "detail.json"}, "apis": "apis.json", "permissions": ["api"]}"#,
            "home.json": screen,
            "detail.json": #"{"format": 1, "id": "detail", "data": {"slow": {"api": "items.list", "params": {"q": "slow"}}}, "keys": {"esc": {"action": "back"}}, "body": {"type": "text", "text": "@{slow.status}"}}"#,
            "apis.json": #"{"services": {"shop": {"baseURL": "http://127.0.0.1:\#(server.port)/v1"}}, "apis": {"items.list": {"service": "shop", "path": "/items", "params": {"q": {"type": "string"}}}}}"#,
        ])
        let data = try TemporaryDirectory("hybrid-data-closed-data")
        let result = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "40x6", "--keys", "wait:100ms ctrl+d esc"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput.split(separator: "\n").dropFirst().first.map(String.init)?.trimmingCharacters(in: .whitespaces),
                       "page 1 last true cache false", result.standardError)
        for _ in 0..<300 where server.connectionsClosedByClient == 0 { usleep(10_000) }
        XCTAssertEqual(server.connectionsClosedByClient, 1, "the server saw the connection close")
        XCTAssertFalse(result.standardError.contains("E_CANCELLED"), result.standardError)
        XCTAssertEqual(log.paths, ["/v1/items?q=", "/v1/items?q=slow"])
    }
}
