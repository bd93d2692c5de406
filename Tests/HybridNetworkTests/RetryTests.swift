import Foundation
import HybridJSON
@testable import HybridNetwork
import TestSupport
import XCTest

/// Retries (SPEC §7.1 `retry`) against a server that fails a number of times first: only where
/// sending twice does no harm, each attempt with the call's one request id.
final class RetryTests: XCTestCase {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var requests: [LoopbackHTTPServer.Request] = []
    }

    func client(port: Int, method: String, idempotent: Bool = false) throws -> APIClient {
        let text = """
        { "services": { "shop": { "baseURL": "http://127.0.0.1:\(port)" } },
          "apis": { "items.send": { "service": "shop", "method": "\(method)", "path": "/items", "idempotent": \(idempotent),
                                    "retry": { "count": 3, "on": [503], "backoff": 5 } } } }
        """
        return APIClient(definitions: try XCTUnwrap(APIDefinitions.load(SourceText(name: "apis.json", text: text)).value))
    }

    /// A server answering 503 `failures` times, then 200.
    func server(_ log: Log, failures: Int) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let count = log.lock.withLock { log.requests.append(request); return log.requests.count }
            return count <= failures ? .init(status: 503, body: "{}") : .init(status: 200, body: #"{"ok": true}"#)
        }
    }

    func testASafeCallIsTriedAgainWithTheSameRequestID() async throws {
        let log = Log()
        let server = try server(log, failures: 2)
        defer { server.stop() }
        let answer = try await client(port: server.port, method: "GET").call("items.send", params: .null)
        XCTAssertEqual(answer["status"], .integer(200))
        let ids = log.lock.withLock { log.requests.map { $0.headers["x-request-id"] ?? "" } }
        XCTAssertEqual(ids.count, 3, "two failures, then the answer")
        XCTAssertEqual(Set(ids).count, 1, "one request id for every attempt")
        XCTAssertEqual(answer["requestId"], .string(ids[0]))
    }

    func testAPostIsNotRetriedUnlessMarkedIdempotentAndTheCountHolds() async throws {
        let log = Log()
        let server = try server(log, failures: 10)
        defer { server.stop() }
        do {
            _ = try await client(port: server.port, method: "POST").call("items.send", params: .null)
            XCTFail("a 503 goes through")
        } catch {
            XCTAssertEqual((error as? CallError)?.code, "E_HTTP")
        }
        XCTAssertEqual(log.lock.withLock { log.requests.count }, 1, "a POST is sent once")
        do {
            _ = try await client(port: server.port, method: "POST", idempotent: true).call("items.send", params: .null)
            XCTFail("still failing after the retries")
        } catch {
            XCTAssertEqual((error as? CallError)?.code, "E_HTTP")
        }
        XCTAssertEqual(log.lock.withLock { log.requests.count }, 1 + 4, "an idempotent POST: one try and three retries")
    }
}
