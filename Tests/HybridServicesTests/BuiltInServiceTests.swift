import Foundation
import HybridJSON
import HybridServices
import HybridTerminal
import TestSupport
import XCTest

final class BuiltInServiceTests: XCTestCase {
    var folder: URL!
    var services: ServiceRegistry!

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-services")
        services = ServiceRegistry()
        BuiltInServices.register(in: services, storage: KeyValueStore(folder: folder), screenSize: { TerminalSize(columns: 100, rows: 30) })
    }

    func call(_ name: String, _ json: String = "{}") async throws -> Result<JSONValue, ServiceError> {
        await services.call(name, parameters: try JSONParser.parse(json).plain)
    }

    func testDeviceInfo() async throws {
        let info = try await call("device.info").get()
        XCTAssertEqual(info["platform"], .string("linux"))
        XCTAssertEqual(info["columns"], .integer(100))
        XCTAssertEqual(info["rows"], .integer(30))
        XCTAssertEqual(info["runtime"], .string(BuiltInServices.runtime))
    }

    func testStorageKeepsValuesInAFileAndWritesAtomically() async throws {
        let missing = try await call("storage.get", #"{"key": "k"}"#).get()
        XCTAssertEqual(missing, .null)
        _ = try await call("storage.set", #"{"key": "k", "value": {"list": [1, 2.5, "x"]}}"#).get()
        _ = try await call("storage.set", #"{"key": "other", "value": true}"#).get()
        let stored = try await call("storage.get", #"{"key": "k"}"#).get()
        XCTAssertEqual(stored.jsonText, #"{"list":[1,2.5,"x"]}"#)
        let keys = try await call("storage.keys").get()
        XCTAssertEqual(keys, .array([.string("k"), .string("other")]))
        _ = try await call("storage.remove", #"{"key": "k"}"#).get()
        let remaining = try await call("storage.keys").get()
        XCTAssertEqual(remaining, .array([.string("other")]))
        // A second store over the same folder (another process) sees the values.
        XCTAssertEqual(try KeyValueStore(folder: folder).value(for: "other"), .bool(true))
        // No temporary file is left behind.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["storage.json", "storage.lock"])
        let empty = try await call("storage.set", #"{"key": "", "value": 1}"#)
        XCTAssertEqual(empty.failureValue?.code, .badParams)
    }

    func testStorageNeedsItsPermission() async throws {
        let caller = ServiceCaller(name: "shop", permissions: ["net.request"])
        let result = await services.call("storage.keys", caller: caller)
        XCTAssertEqual(result.failureValue?.code, .denied)
    }

    func testNetRequestOverLoopback() async throws {
        let server = try LoopbackHTTPServer { request in
            .init(status: 201, headers: ["X-Echo": request.headers["x-token"] ?? ""], body: "\(request.method) \(request.path) \(request.body)")
        }
        defer { server.stop() }
        let response = try await call("net.request", """
        {"url": "http://127.0.0.1:\(server.port)/items?a=1", "method": "post", "headers": {"X-Token": "t"}, "body": "hello"}
        """).get()
        XCTAssertEqual(response["status"], .integer(201))
        XCTAssertEqual(response["body"], .string("POST /items?a=1 hello"))
        XCTAssertEqual(response["headers"]?["x-echo"], .string("t"))
    }

    func testNetRequestToARefusedPortFails() async throws {
        let port = LoopbackHTTPServer.refusedPort()
        let result = try await call("net.request", #"{"url": "http://127.0.0.1:\#(port)/"}"#)
        XCTAssertEqual(result.failureValue, ServiceError(.failed, "net.request: http://127.0.0.1:\(port)/: cannot connect to 127.0.0.1:\(port): connection refused"))
    }

    func testNetRequestTimesOut() async throws {
        let server = try LoopbackHTTPServer { _ in nil }
        defer { server.stop() }
        let result = try await call("net.request", #"{"url": "http://127.0.0.1:\#(server.port)/slow", "timeout": 0.3}"#)
        XCTAssertEqual(result.failureValue, ServiceError(.timeout, "net.request: http://127.0.0.1:\(server.port)/slow: timed out after 0.3 s"))
    }

    /// Issue 11: `timeout: 1e308` trapped inside Foundation; it is cut to a day now.
    func testNetRequestTakesAHugeTimeoutAndRefusesNonsense() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: "ok") }
        defer { server.stop() }
        let response = try await call("net.request", #"{"url": "http://127.0.0.1:\#(server.port)/", "timeout": 1e308}"#).get()
        XCTAssertEqual(response["body"], .string("ok"))
        for nonsense in ["0", "-1", "-1e308"] {
            let result = try await call("net.request", #"{"url": "http://127.0.0.1:\#(server.port)/", "timeout": \#(nonsense)}"#)
            XCTAssertEqual(result.failureValue?.code, .badParams, "\(nonsense): \(result)")
        }
    }

    /// Issue 11: a redirect to file:// was reported as "HTTP 404".
    func testNetRequestRefusesARedirectToAFileURL() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 302, headers: ["Location": "file:///etc/passwd"], body: "") }
        defer { server.stop() }
        let result = try await call("net.request", #"{"url": "http://127.0.0.1:\#(server.port)/"}"#)
        XCTAssertEqual(result.failureValue, ServiceError(.failed, "net.request: http://127.0.0.1:\(server.port)/: redirected to file:///etc/passwd, which is not an http:// or https:// URL (not followed)"), "\(result)")
    }

    /// A header value with a line break would smuggle headers in; it is refused, nothing sent.
    func testNetRequestRefusesAHeaderHTTPCannotCarry() async throws {
        let result = try await call("net.request", #"{"url": "http://127.0.0.1:9/", "headers": {"X-A": "a\r\nB: c"}}"#)
        XCTAssertEqual(result.failureValue, ServiceError(.badParams, #"net.request: header "X-A": a value cannot hold a line break or NUL"#))
    }

    func testNetRequestRejectsWhatIsNotAnHTTPURL() async throws {
        let result = try await call("net.request", #"{"url": "file:///etc/passwd"}"#)
        XCTAssertEqual(result.failureValue, ServiceError(.badParams, #"net.request: field "url": expected an http:// or https:// URL, got "file:///etc/passwd""#))
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
