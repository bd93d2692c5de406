import Foundation
import HybridJSON
@testable import HybridNetwork
import TestSupport
import XCTest

/// The outbox (SPEC §7.1 `offline: "queue"`): a call whose host cannot be reached waits on
/// disk and is sent later, in order, once, with its request id as `Idempotency-Key`, also by
/// the next run; a refusal drops it, a 503 keeps it and holds back its service's later calls.
final class OutboxTests: XCTestCase {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var requests: [LoopbackHTTPServer.Request] = []
        var reports: [String] = []
        var all: [LoopbackHTTPServer.Request] { lock.withLock { requests } }
    }

    func definitions(port: Int) throws -> APIDefinitions {
        let text = """
        { "services": { "shop": { "baseURL": "http://127.0.0.1:\(port)/v1" } },
          "apis": { "cart.add": { "service": "shop", "method": "POST", "path": "/cart", "offline": "queue",
                                  "params": { "item": { "type": "string", "required": true } } },
                    "cart.get": { "service": "shop", "path": "/cart" } } }
        """
        return try XCTUnwrap(APIDefinitions.load(SourceText(name: "apis.json", text: text)).value)
    }

    func client(port: Int, folder: String, log: Log) throws -> APIClient {
        APIClient(definitions: try definitions(port: port), outbox: Outbox(folder: folder) { line in log.lock.withLock { log.reports.append(line) } },
                  report: { line in log.lock.withLock { log.reports.append(line) } })
    }

    /// A server logging every request and answering `status(item)` (200 by default).
    func server(port: Int, _ log: Log, status: @escaping @Sendable (String) -> Int = { _ in 200 }) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer(port: port) { request in
            log.lock.withLock { log.requests.append(request) }
            let item = (try? JSONParser.parse(Array(request.body.utf8)).plain)?["item"]?.stringValue ?? ""
            return .init(status: status(item), headers: ["Content-Type": "application/json"], body: #"{"ok": true}"#)
        }
    }

    func params(_ item: String) -> JSONValue { .object(JSONObject([("item", .string(item))])) }

    func testQueuedCallsAreSentOnceInOrderByTheNextRunWithTheirIdempotencyKeys() async throws {
        let folder = try TemporaryDirectory("outbox")
        let log = Log()
        let port = LoopbackHTTPServer.refusedPort()
        let offline = try client(port: port, folder: folder.path, log: log)
        var ids: [String] = []
        for item in ["tea", "cups", "kettle"] {
            let answer = try await offline.call("cart.add", params: params(item))
            XCTAssertEqual(answer["queued"], .bool(true))
            ids.append(try XCTUnwrap(answer["requestId"]?.stringValue))
        }
        XCTAssertEqual(offline.outbox.map(\.api), ["cart.add", "cart.add", "cart.add"])
        XCTAssertEqual(offline.outbox.map(\.requestID), ids)
        do {
            _ = try await offline.call("cart.add", params: .object(JSONObject()))
            XCTFail("bad params are refused, not queued")
        } catch {
            XCTAssertEqual(error.code, "E_BAD_PARAMS")
        }

        // The next run, with the server back: what waits goes first, in order, once.
        let server = try server(port: port, log)
        defer { server.stop() }
        let restarted = try client(port: port, folder: folder.path, log: log)
        let flushed = await restarted.flush()
        XCTAssertTrue([JSONValue.integer(3), .integer(0)].contains(flushed["sent"] ?? .null), "\(flushed)")
        XCTAssertEqual(restarted.outbox, [])
        let requests = log.all
        XCTAssertEqual(requests.map(\.body), [#"{"item":"tea"}"#, #"{"item":"cups"}"#, #"{"item":"kettle"}"#])
        XCTAssertEqual(requests.map { $0.headers["idempotency-key"] ?? "" }, ids)
        XCTAssertEqual(requests.map { $0.headers["x-request-id"] ?? "" }, ids)
        let again = await restarted.flush()
        XCTAssertEqual(again, try JSONParser.parse(#"{"sent": 0, "dropped": 0, "left": 0}"#).plain)
        XCTAssertEqual(log.all.count, 3, "sent once")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }, [])
    }

    func testARefusalDropsACallAndA503KeepsItAheadOfLaterCalls() async throws {
        let folder = try TemporaryDirectory("outbox-refusal")
        let log = Log()
        let port = LoopbackHTTPServer.refusedPort()
        let offline = try client(port: port, folder: folder.path, log: log)
        for item in ["gone", "busy", "tea"] { _ = try await offline.call("cart.add", params: params(item)) }

        let server = try server(port: port, log) { item in item == "gone" ? 409 : item == "busy" ? 503 : 200 }
        defer { server.stop() }
        let result = await offline.flush()
        XCTAssertEqual(result, try JSONParser.parse(#"{"sent": 0, "dropped": 1, "left": 2}"#).plain)
        XCTAssertEqual(log.all.map(\.body), [#"{"item":"gone"}"#, #"{"item":"busy"}"#], "the 503 holds back what follows")
        XCTAssertEqual(offline.outbox.map(\.tries), [1, 0])
        XCTAssertTrue(log.lock.withLock { log.reports }.contains { $0.contains("cart.add") && $0.contains("409") && $0.contains("dropped") })

        // A later call of the service waits its turn: it is queued behind, not sent ahead.
        let later = try await offline.call("cart.add", params: params("cups"))
        XCTAssertEqual(later["queued"], .bool(true))
        XCTAssertEqual(offline.outbox.map { $0.params["item"]?.stringValue ?? "" }, ["busy", "tea", "cups"])
    }

    func testADamagedEntryIsDroppedAndReported() async throws {
        let folder = try TemporaryDirectory("outbox-damaged")
        let log = Log()
        let port = LoopbackHTTPServer.refusedPort()
        let offline = try client(port: port, folder: folder.path, log: log)
        _ = try await offline.call("cart.add", params: params("tea"))
        _ = try await offline.call("cart.add", params: params("cups"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(names.count, 2)
        try "{ damaged".write(toFile: folder.url.appendingPathComponent(names[0]).path, atomically: true, encoding: .utf8)

        let reopened = Outbox(folder: folder.path) { line in log.lock.withLock { log.reports.append(line) } }
        XCTAssertEqual(reopened.all.map { $0.params["item"]?.stringValue ?? "" }, ["cups"])
        XCTAssertTrue(log.lock.withLock { log.reports }.contains { $0.contains(names[0]) && $0.contains("damaged outbox entry") })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }, [names[1]])
    }
}
