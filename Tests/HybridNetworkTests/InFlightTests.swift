import Foundation
import HybridJSON
@testable import HybridNetwork
import TestSupport
import XCTest

/// What a call does while another of its API is in flight (SPEC §7.1 `inFlight`), against a
/// loopback server that answers slowly (or never) and counts requests.
final class InFlightTests: XCTestCase {
    final class Counter: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
    }

    func client(policy: String, port: Int) throws -> APIClient {
        let text = """
        { "services": { "shop": { "baseURL": "http://127.0.0.1:\(port)", "timeout": 20 } },
          "apis": { "items.list": { "service": "shop", "path": "/items", "params": { "q": { "type": "string" } }, "inFlight": "\(policy)" } } }
        """
        return APIClient(definitions: try XCTUnwrap(APIDefinitions.load(SourceText(name: "apis.json", text: text)).value))
    }

    /// A server answering after `delay` seconds, or never for `q=never`.
    func server(_ counter: Counter, delay: Double = 0.3) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let number = counter.lock.withLock { counter.count += 1; return counter.count }
            if request.path.contains("q=never") { return nil }
            Thread.sleep(forTimeInterval: delay)
            return .init(status: 200, body: #"{"n": \#(number)}"#)
        }
    }

    static func code(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? CallError)?.code
        }
    }

    func testDedupeSendsOneRequestForIdenticalCalls() async throws {
        let counter = Counter()
        let server = try server(counter)
        defer { server.stop() }
        let client = try client(policy: "dedupe", port: server.port)
        async let first = client.call("items.list", params: .null)
        async let second = client.call("items.list", params: .null)
        let (a, b) = try await (first, second)
        XCTAssertEqual(counter.count, 1)
        XCTAssertEqual(a["data"], b["data"])
        _ = try await client.call("items.list", params: .object(JSONObject([("q", .string("other"))])))
        XCTAssertEqual(counter.count, 2, "other params are another call")
    }

    /// Calls are judged when they start, in the order they were made: a hundred started
    /// together while the first is in flight are one request, though none is awaited yet.
    func testAHundredDedupeCallsStartedTogetherAreOneRequest() async throws {
        let counter = Counter()
        let server = try server(counter)
        defer { server.stop() }
        let client = try client(policy: "dedupe", port: server.port)
        var jobs: [@Sendable () async throws(CallError) -> JSONValue] = []
        for _ in 0..<100 {
            guard case .pending(let job) = try client.start("items.list", params: .null) else { return XCTFail("nothing is kept") }
            jobs.append(job)
        }
        for job in jobs { _ = try await job() }
        XCTAssertEqual(counter.lock.withLock { counter.count }, 1)
    }

    func testIgnoreNewRefusesACallWhileOneIsInFlight() async throws {
        let counter = Counter()
        let server = try server(counter)
        defer { server.stop() }
        let client = try client(policy: "ignoreNew", port: server.port)
        async let first = client.call("items.list", params: .null)
        // In flight once the server has it (the server then takes 0.3 s to answer).
        while counter.lock.withLock({ counter.count }) == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        let refused = await Self.code { _ = try await client.call("items.list", params: .object(JSONObject([("q", .string("x"))]))) }
        XCTAssertEqual(refused, "E_DUPLICATE")
        _ = try await first
        XCTAssertEqual(counter.count, 1, "the refused call sent nothing")
    }

    func testCancelByPatternCancelsTheCallsInFlight() async throws {
        let counter = Counter()
        let server = try server(counter, delay: 0)
        defer { server.stop() }
        let client = try client(policy: "parallel", port: server.port)
        let first = Task { await codeOfCall(client, q: "never") }
        while counter.lock.withLock({ counter.count }) == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        client.cancel("other.*")
        client.cancel("items.*")
        let cancelled = await first.value
        XCTAssertEqual(cancelled, "E_CANCELLED")
        XCTAssertTrue(APIDefinitions.name("items.list", matches: "*"))
        XCTAssertFalse(APIDefinitions.name("itemsx.list", matches: "items.*"))
    }

    func testCancelPreviousCancelsTheCallInFlightAndClosesItsConnection() async throws {
        let counter = Counter()
        let server = try server(counter, delay: 0)
        defer { server.stop() }
        let client = try client(policy: "cancelPrevious", port: server.port)
        let first = Task { await codeOfCall(client, q: "never") }
        while counter.lock.withLock({ counter.count }) == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        let second = try await client.call("items.list", params: .object(JSONObject([("q", .string("now"))])))
        let cancelled = await first.value
        XCTAssertEqual(cancelled, "E_CANCELLED")
        XCTAssertEqual(second["status"], .integer(200))
        for _ in 0..<200 where server.connectionsClosedByClient == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(server.connectionsClosedByClient, 1, "the cancelled call's connection is closed")
    }
}

/// The error code of calling `items.list` with `q` (nil when it answers).
private func codeOfCall(_ client: APIClient, q: String) async -> String? {
    do {
        _ = try await client.call("items.list", params: .object(JSONObject([("q", .string(q))])))
        return nil
    } catch {
        return error.code
    }
}
