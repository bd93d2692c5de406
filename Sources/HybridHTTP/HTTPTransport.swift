import AsyncHTTPClient
import Foundation
import NIOCore
import NIOConcurrencyHelpers
import NIOHTTP1

/// HTTP(S) for the whole process, on one shared AsyncHTTPClient: pooled connections, a deadline
/// over the whole exchange, a cap on the body, redirects checked hop by hop, and failures in words
/// (`Failure`). Cancelling the calling task cancels the request and closes its connection.
///
/// It carries no policy of its own (no retries, ids, signing or caching): callers — `net.request`,
/// bundle downloads, the API engine — decide those and send one `Request` per attempt.
public struct HTTPTransport: Sendable {
    /// Redirects followed when a request does not say.
    public static let defaultRedirectLimit = 10

    /// The transport every caller shares.
    public static let shared = HTTPTransport(client: processClient)

    /// The process's one client. AsyncHTTPClient's own `HTTPClient.shared` follows redirects
    /// itself and retries refused connections until its connect timeout; this one leaves
    /// redirects to `send` (so a hop to file:// is refused in words) and reports a refused
    /// connection at once. A global lives until the process exits, so it is never deinitialised
    /// un-shut-down, and nothing needs to shut it down.
    private static let processClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .disabled)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 8)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    private let client: HTTPClient

    private init(client: HTTPClient) {
        self.client = client
    }

    /// Sends `request` and reads its whole body (at most `request.bodyLimit` bytes).
    public func send(_ request: Request) async throws(Failure) -> Response {
        let collector = BodyCollector()
        do {
            let head = try await send(request) { _ in collector }
            return Response(head: head, body: collector.bytes)
        } catch {
            // The collector throws nothing, so every error here is already a `Failure`.
            throw Failure.from(error, url: request.url, received: collector.bytes.count)
        }
    }

    /// Sends `request` and streams the answer: `receiver` sees the head (after redirects, the
    /// body limit already checked against `Content-Length`) and answers who takes the body, or
    /// `nil` to leave it unread (its connection is then closed). More body bytes than
    /// `request.bodyLimit` fail the request. Throws a `Failure`, or what `receiver` or its sink
    /// threw, unchanged.
    public func send(_ request: Request, receiver: @escaping @Sendable (Head) throws -> (any BodySink)?) async throws -> Head {
        try Self.validate(request)
        let received = NIOLockedValueBox(0)
        let timedOut = NIOLockedValueBox(false)
        // The exchange runs as a task of its own, so the deadline can end it (its connection
        // closed) without cancelling the caller, which may go on (to try again, say). One NIO
        // timer keeps the deadline: cheaper than a task sleeping beside it.
        let exchange = Task { try await self.exchange(request, received: received, receiver: receiver) }
        let deadline = HTTPClient.defaultEventLoopGroup.any().scheduleTask(deadline: Self.nioDeadline(request.deadline)) {
            timedOut.withLockedValue { $0 = true }
            exchange.cancel()
        }
        defer { deadline.cancel() }
        do {
            return try await withTaskCancellationHandler { try await exchange.value } onCancel: { exchange.cancel() }
        } catch {
            if timedOut.withLockedValue({ $0 }) { throw Failure.timedOut(received: received.withLockedValue { $0 }) }
            if error is CancellationError || Task.isCancelled { throw Failure.cancelled }
            throw error
        }
    }

    /// One request and its redirects, then the body into the receiver's sink.
    private func exchange(_ request: Request, received: NIOLockedValueBox<Int>,
                          receiver: @Sendable (Head) throws -> (any BodySink)?) async throws -> Head {
        var hop = request
        var redirects = 0
        while true {
            let response: HTTPClientResponse
            do {
                response = try await client.execute(Self.outgoing(hop), deadline: Self.nioDeadline(hop.deadline))
            } catch {
                throw Failure.from(error, url: hop.url, received: 0)
            }
            if let next = try Self.redirect(from: hop, answer: response, redirectsSoFar: redirects) {
                hop = next
                redirects += 1
                continue
            }
            let head = Head(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, url: hop.url,
                            expectedLength: response.headers.first(name: "content-length").flatMap { Int($0) })
            if let expected = head.expectedLength, expected > request.bodyLimit {
                throw Failure.tooLarge(announced: expected, limit: request.bodyLimit)
            }
            guard let sink = try receiver(head) else { return head }
            var iterator = response.body.makeAsyncIterator()
            var count = 0
            while true {
                let chunk: ByteBuffer?
                do {
                    chunk = try await iterator.next()
                } catch {
                    throw Self.cutOff(Failure.from(error, url: hop.url, received: count), received: count, expected: head.expectedLength)
                }
                guard let chunk else { break }
                count += chunk.readableBytes
                received.withLockedValue { $0 = count }
                guard count <= request.bodyLimit else { throw Failure.tooLarge(announced: nil, limit: request.bodyLimit) }
                try sink.receive(Array(chunk.readableBytesView))
            }
            if let expected = head.expectedLength, count < expected {
                throw Failure.truncated(received: count, expected: expected)
            }
            return head
        }
    }

    /// A body that broke off before its announced end is a truncated one.
    private static func cutOff(_ failure: Failure, received: Int, expected: Int?) -> Failure {
        switch failure {
        case .connectionLost, .badResponse:
            guard let expected, received < expected else { return failure }
            return .truncated(received: received, expected: expected)
        default:
            return failure
        }
    }

    /// The request for the next hop when `answer` redirects (nil when it does not), checked:
    /// only to http(s), at most `redirectLimit` hops. A 303 (and a 301 or 302 after a POST)
    /// becomes a GET without the body, as browsers do; credentials are not sent to another origin.
    private static func redirect(from hop: Request, answer: HTTPClientResponse, redirectsSoFar: Int) throws(Failure) -> Request? {
        let status = Int(answer.status.code)
        guard hop.redirectLimit > 0, [301, 302, 303, 307, 308].contains(status),
              let location = answer.headers.first(name: "location") else { return nil }
        guard let target = URL(string: location, relativeTo: hop.url)?.absoluteURL, isHTTP(target) else {
            throw .redirectRefused(to: location)
        }
        guard redirectsSoFar < hop.redirectLimit else { throw .tooManyRedirects(limit: hop.redirectLimit) }
        var next = hop
        next.url = target
        if status == 303 || (status == 301 || status == 302) && hop.method.uppercased() == "POST" {
            next.method = "GET"
            next.body = nil
            next.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
        }
        if (target.scheme?.lowercased(), target.host?.lowercased(), target.port) != (hop.url.scheme?.lowercased(), hop.url.host?.lowercased(), hop.url.port) {
            next.headers.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.name.lowercased()) }
        }
        return next
    }

    /// `request` as AsyncHTTPClient sends it.
    private static func outgoing(_ request: Request) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.uppercased())
        for (name, value) in request.headers {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(body)
        }
        return outgoing
    }

    /// Refuses, before anything is sent, what HTTP cannot carry: a URL that is not absolute
    /// http(s), a method or header name that is not a token, a header value with a line break.
    private static func validate(_ request: Request) throws(Failure) {
        guard isHTTP(request.url) else {
            throw .invalidRequest("\(request.url.absoluteString) is not an absolute http:// or https:// URL")
        }
        guard isToken(request.method) else { throw .invalidRequest("method \"\(request.method)\" is not an HTTP method name") }
        for (name, value) in request.headers {
            guard isToken(name) else { throw .invalidRequest("header name \"\(name)\" is not an HTTP header name") }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw .invalidRequest("header \"\(name)\": a value cannot hold a line break or NUL")
            }
        }
    }

    private static func isHTTP(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "") && !(url.host ?? "").isEmpty
    }

    /// RFC 9110's token: what method and header names are made of.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0)) }
    }

    /// `deadline` on NIO's clock (a deadline already past is now).
    private static func nioDeadline(_ deadline: ContinuousClock.Instant) -> NIODeadline {
        let (seconds, attoseconds) = max(.zero, deadline - .now).components
        return .now() + .nanoseconds(min(seconds, 86_400 * 2) * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
