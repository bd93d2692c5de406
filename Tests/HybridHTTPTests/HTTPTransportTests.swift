import Foundation
import HybridHTTP
import TestSupport
import XCTest

/// The shared transport against real servers on loopback: each failure class ends in words,
/// and a cancelled task closes its connection.
final class HTTPTransportTests: XCTestCase {
    func request(_ server: LoopbackHTTPServer, _ path: String = "/", method: String = "GET", body: String? = nil,
                 timeout: Duration = .seconds(30), bodyLimit: Int = 1 << 20) -> HTTPTransport.Request {
        HTTPTransport.Request(method: method, url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!,
                              headers: [(name: "X-Token", value: "t")], body: body.map { Array($0.utf8) },
                              timeout: timeout, bodyLimit: bodyLimit)
    }

    func failure(_ request: HTTPTransport.Request) async -> HTTPTransport.Failure? {
        do {
            _ = try await HTTPTransport.shared.send(request)
            return nil
        } catch {
            return error
        }
    }

    func testSendsMethodHeadersAndBodyAndReadsTheAnswer() async throws {
        let server = try LoopbackHTTPServer { request in
            .init(status: 201, headers: ["X-Echo": request.headers["x-token"] ?? ""], body: "\(request.method) \(request.path) \(request.body)")
        }
        defer { server.stop() }
        let response = try await HTTPTransport.shared.send(request(server, "/items?a=1", method: "post", body: "hello"))
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "POST /items?a=1 hello")
        XCTAssertEqual(response.head.header("x-echo"), "t")
    }

    /// A Swift task cancelled while its request waits for an answer closes the connection: the
    /// server sees it go, and the caller reads `cancelled`.
    func testCancellingTheTaskClosesTheConnection() async throws {
        let arrived = XCTestExpectation(description: "the request reached the server")
        let server = try LoopbackHTTPServer { _ in
            arrived.fulfill()
            return nil
        }
        defer { server.stop() }
        let outgoing = request(server)
        let task = Task { () -> HTTPTransport.Failure? in
            do throws(HTTPTransport.Failure) {
                _ = try await HTTPTransport.shared.send(outgoing)
                return nil
            } catch {
                return error
            }
        }
        await fulfillment(of: [arrived], timeout: 30)
        task.cancel()
        let result = await task.value
        XCTAssertEqual(result, .cancelled)
        for _ in 0..<3000 where server.connectionsClosedByClient == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertEqual(server.connectionsClosedByClient, 1, "the server saw the connection close")
    }

    /// Cancelled while the body streams, the request closes its connection all the same.
    func testCancellingTheTaskWhileTheBodyStreamsClosesTheConnection() async throws {
        let server = try LoopbackHTTPServer { _ in
            var response = LoopbackHTTPServer.Response(status: 200, bytes: Array(repeating: 65, count: 100_000))
            response.dripInterval = 0.01
            return response
        }
        defer { server.stop() }
        let firstBytes = XCTestExpectation(description: "the body started")
        let sink = Signalling { firstBytes.fulfill() }
        let outgoing = request(server, bodyLimit: 1 << 20)
        let task = Task { () -> HTTPTransport.Failure? in
            do {
                _ = try await HTTPTransport.shared.send(outgoing) { _ in sink }
                return nil
            } catch {
                return error as? HTTPTransport.Failure
            }
        }
        await fulfillment(of: [firstBytes], timeout: 30)
        task.cancel()
        let result = await task.value
        XCTAssertEqual(result, .cancelled)
        for _ in 0..<3000 where server.connectionsClosedByClient == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertEqual(server.connectionsClosedByClient, 1, "the server saw the connection close")
    }

    func testTheDeadlineCoversTheBodyAndIsReportedAsTimedOut() async throws {
        let server = try LoopbackHTTPServer { _ in
            var response = LoopbackHTTPServer.Response(status: 200, bytes: Array(repeating: 65, count: 1000))
            response.dripInterval = 0.05
            return response
        }
        defer { server.stop() }
        guard case .timedOut(let received) = await failure(request(server, timeout: .milliseconds(500))) else {
            return XCTFail("a dripping body must time out")
        }
        XCTAssertLessThan(received, 1000)
        XCTAssertEqual(HTTPTransport.Failure.timedOut(received: 0).description, "no answer before the deadline")
    }

    func testARefusedConnectionSaysSo() async throws {
        let port = LoopbackHTTPServer.refusedPort()
        let request = HTTPTransport.Request(url: URL(string: "http://127.0.0.1:\(port)/")!, timeout: .seconds(30), bodyLimit: 10)
        let failure = await failure(request)
        XCTAssertEqual(failure?.description, "cannot connect to 127.0.0.1:\(port): connection refused")
    }

    func testARedirectToAFileURLIsRefusedInWords() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 302, headers: ["Location": "file:///etc/passwd"], body: "") }
        defer { server.stop() }
        let failure = await failure(request(server))
        XCTAssertEqual(failure?.description, "redirected to file:///etc/passwd, which is not an http:// or https:// URL (not followed)")
    }

    func testRedirectsAreFollowedUpToTheLimit() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/form": .init(status: 303, headers: ["Location": "done"], body: "")
            case "/done": .init(status: 200, body: "\(request.method) \(request.body)")
            default: .init(status: 302, headers: ["Location": request.path + "x"], body: "")
            }
        }
        defer { server.stop() }
        let response = try await HTTPTransport.shared.send(request(server, "/form", method: "POST", body: "data"))
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "GET ", "a 303 after a POST is a GET without the body")
        XCTAssertEqual(response.head.url.path, "/done")
        let loop = await failure(request(server, "/loop"))
        XCTAssertEqual(loop, .tooManyRedirects(limit: HTTPTransport.defaultRedirectLimit))
    }

    func testTheBodyLimitHoldsWhetherAnnouncedOrSent() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/announced"
                ? .init(status: 200, bytes: [1, 2, 3], announcedLength: 1 << 30)
                : .init(status: 200, bytes: Array(repeating: 7, count: 4096), isEndless: true)
        }
        defer { server.stop() }
        let announced = await failure(request(server, "/announced", bodyLimit: 100))
        XCTAssertEqual(announced?.description, "announces 1073741824 bytes, more than the 100 allowed")
        let endless = await failure(request(server, "/endless", bodyLimit: 100_000))
        XCTAssertEqual(endless, .tooLarge(announced: nil, limit: 100_000))
    }

    func testABodyShorterThanAnnouncedIsTruncated() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, bytes: Array(repeating: 1, count: 10), announcedLength: 50) }
        defer { server.stop() }
        let failure = await failure(request(server))
        XCTAssertEqual(failure?.description, "truncated: got 10 of 50 bytes")
    }

    func testWhatHTTPCannotCarryIsRefusedBeforeSending() async throws {
        let url = URL(string: "http://127.0.0.1:9/")!
        let header = await failure(.init(url: url, headers: [(name: "X-A", value: "a\r\nInjected: yes")], timeout: .seconds(5), bodyLimit: 10))
        XCTAssertEqual(header, .invalidRequest("header \"X-A\": a value cannot hold a line break or NUL"))
        let method = await failure(.init(method: "GE T", url: url, timeout: .seconds(5), bodyLimit: 10))
        XCTAssertEqual(method, .invalidRequest("method \"GE T\" is not an HTTP method name"))
    }
}

/// A sink that says when its first bytes arrive.
private final class Signalling: BodySink, @unchecked Sendable {
    private let signal: @Sendable () -> Void
    private var signalled = false

    init(signal: @escaping @Sendable () -> Void) {
        self.signal = signal
    }

    func receive(_ bytes: [UInt8]) throws {
        guard !signalled else { return }
        signalled = true
        signal()
    }
}
