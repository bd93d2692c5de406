import Foundation
import HybridJSON
@testable import HybridNetwork
import TestSupport
import XCTest

/// The answer cache (SPEC §7.1 `cache`) against a loopback server that counts requests, on a
/// clock the test moves.
final class APIClientCacheTests: XCTestCase {
    final class Clock: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_000_000)
    }

    final class Counter: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        var failing = false
    }

    func definitions(port: Int, store: String, staleIfError: Bool = false) throws -> APIDefinitions {
        let text = """
        { "services": { "shop": { "baseURL": "http://127.0.0.1:\(port)" } },
          "apis": { "items.list": { "service": "shop", "path": "/items",
                                    "params": { "a": { "type": "integer" }, "b": { "type": "integer" } },
                                    "cache": { "ttl": 60, "store": "\(store)", "staleIfError": \(staleIfError) } } } }
        """
        let load = APIDefinitions.load(SourceText(name: "apis.json", text: text))
        XCTAssertEqual(load.formattedDiagnostics, [])
        return try XCTUnwrap(load.value)
    }

    func server(_ counter: Counter) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _ in
            counter.lock.withLock {
                counter.count += 1
                return counter.failing ? .init(status: 503, body: "{}") : .init(status: 200, body: #"{"n": \#(counter.count)}"#)
            }
        }
    }

    func testOneRequestForTheSameParamsInAnyOrderUntilTheTTLPasses() async throws {
        let counter = Counter(), clock = Clock()
        let server = try server(counter)
        defer { server.stop() }
        let client = APIClient(definitions: try definitions(port: server.port, store: "memory"), now: { clock.now })
        let first = try await client.call("items.list", params: try JSONParser.parse(#"{"a": 1, "b": 2}"#).plain)
        let second = try await client.call("items.list", params: try JSONParser.parse(#"{"b": 2, "a": 1}"#).plain)
        XCTAssertEqual(counter.count, 1, "{a,b} and {b,a} are one entry")
        XCTAssertEqual(first["fromCache"], .bool(false))
        XCTAssertEqual(second["fromCache"], .bool(true))
        XCTAssertEqual(second["data"], .object(JSONObject([("n", .integer(1))])))
        clock.now += 61
        let third = try await client.call("items.list", params: try JSONParser.parse(#"{"a": 1, "b": 2}"#).plain)
        XCTAssertEqual(counter.count, 2, "after the TTL the answer is asked again")
        XCTAssertEqual(third["data"], .object(JSONObject([("n", .integer(2))])))
        _ = try await client.call("items.list", params: try JSONParser.parse(#"{"a": 1, "b": 2}"#).plain, cacheMode: .reload)
        XCTAssertEqual(counter.count, 3, "reload asks whatever is kept")
    }

    func testAStaleAnswerStandsInForAFailureOnlyWhenTheAPISaysSo() async throws {
        let counter = Counter(), clock = Clock()
        let server = try server(counter)
        defer { server.stop() }
        let client = APIClient(definitions: try definitions(port: server.port, store: "memory", staleIfError: true), now: { clock.now })
        _ = try await client.call("items.list", params: .null)
        clock.now += 120
        counter.lock.withLock { counter.failing = true }
        let stale = try await client.call("items.list", params: .null)
        XCTAssertEqual(stale["stale"], .bool(true))
        XCTAssertEqual(stale["fromCache"], .bool(true))
        do {
            _ = try await client.call("items.list", params: try JSONParser.parse(#"{"a": 5}"#).plain)
            XCTFail("nothing kept for these params: the failure goes through")
        } catch {
            XCTAssertEqual((error as? CallError)?.code, "E_HTTP")
        }
        do {
            _ = try await client.call("items.list", params: try JSONParser.parse(#"{"a": 6}"#).plain, cacheMode: .only)
            XCTFail("cache only with nothing kept")
        } catch {
            XCTAssertEqual((error as? CallError)?.code, "E_OFFLINE")
        }
    }

    func testTheDiskCacheServesAnotherClientAndDropsADamagedEntry() async throws {
        let counter = Counter(), clock = Clock()
        let server = try server(counter)
        defer { server.stop() }
        let folder = try TemporaryDirectory("answer-cache")
        let definitions = try definitions(port: server.port, store: "disk")
        _ = try await APIClient(definitions: definitions, cache: AnswerCache(folder: folder.path), now: { clock.now }).call("items.list", params: .null)
        let again = try await APIClient(definitions: definitions, cache: AnswerCache(folder: folder.path), now: { clock.now }).call("items.list", params: .null)
        XCTAssertEqual(counter.count, 1, "a second client (a second run) reads the disk")
        XCTAssertEqual(again["fromCache"], .bool(true))

        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(entries.count, 1)
        try "{ damaged".write(toFile: folder.url.appendingPathComponent(entries[0]).path, atomically: true, encoding: .utf8)
        let reports = Counter()
        let cache = AnswerCache(folder: folder.path) { _ in reports.lock.withLock { reports.count += 1 } }
        let fresh = try await APIClient(definitions: definitions, cache: cache, now: { clock.now }).call("items.list", params: .null)
        XCTAssertEqual(fresh["fromCache"], .bool(false), "the damaged entry is dropped and the answer asked again")
        XCTAssertEqual(reports.count, 1)
        XCTAssertEqual(counter.count, 2)
    }
}
