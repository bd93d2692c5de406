import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that a test starts and stops itself: each request
/// is answered by `respond` (method, path, headers, body) → (status, headers, body), or left
/// unanswered when it returns nil (to provoke timeouts). Responses may misbehave on purpose:
/// announce more than they send (a truncated download) or never end.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// A request as received.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var headers: [String: String]
        public var body: String
    }

    /// What to answer.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        /// The Content-Length sent (the body's size when `nil`); a larger one with the
        /// connection closed after the body makes a truncated response.
        public var announcedLength: Int?
        /// Sends the body over and over without a Content-Length until the client leaves.
        public var isEndless = false
        /// Sends the body one byte at a time, this many seconds apart (a server that drips).
        public var dripInterval: Double?

        /// A text answer.
        public init(status: Int, headers: [String: String] = [:], body: String) {
            self.init(status: status, headers: headers, bytes: Array(body.utf8))
        }

        /// A binary answer.
        public init(status: Int, headers: [String: String] = [:], bytes: [UInt8], announcedLength: Int? = nil, isEndless: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = bytes
            self.announcedLength = announcedLength
            self.isEndless = isEndless
        }
    }

    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let respond: @Sendable (Request) -> Response?
    private let lock = NSLock()
    private var stopped = false
    private var connections: [Int32] = []
    private var closedByClient = 0

    /// How many connections the client closed while the server waited (`respond` gave nil) or
    /// dripped a body.
    public var connectionsClosedByClient: Int { lock.withLock { closedByClient } }

    /// Starts listening on `port`, or on a free port when it is 0 (a server that comes back
    /// on the port a stopped one had).
    public init(port: Int = 0, respond: @escaping @Sendable (Request) -> Response?) throws {
        self.respond = respond
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// A port nothing listens on (bound and closed at once).
    public static func refusedPort() -> Int {
        let server = try? LoopbackHTTPServer { _ in nil }
        let port = server?.port ?? 9
        server?.stop()
        return port
    }

    /// Stops listening and drops open connections.
    public func stop() {
        let open = lock.withLock { () -> [Int32] in
            stopped = true
            return connections
        }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            lock.withLock { connections.append(connection) }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !data.contains(sequence: Array("\r\n\r\n".utf8)) {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return }
            data += chunk[0..<count]
        }
        let text = String(decoding: data, as: UTF8.self)
        let headEnd = text.range(of: "\r\n\r\n")!
        let lines = text[..<headEnd.lowerBound].components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(text[headEnd.upperBound...].utf8)
        let expected = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < expected {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { break }
            body += chunk[0..<count]
        }
        let request = Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
                              body: String(decoding: body, as: UTF8.self))
        guard let response = respond(request) else {
            // Leave the client waiting until the server stops or the client hangs up.
            while !lock.withLock({ stopped }) {
                var byte: UInt8 = 0
                let peeked = recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                if peeked == 0 || peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                    lock.withLock { closedByClient += 1 }
                    return
                }
                usleep(10_000)
            }
            return
        }
        var head = "HTTP/1.1 \(response.status) Status\r\nConnection: close\r\n"
        if !response.isEndless { head += "Content-Length: \(response.announcedLength ?? response.body.count)\r\n" }
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if let interval = response.dripInterval {
            guard transmit(Array((head + "\r\n").utf8), on: connection) else { return }
            for byte in response.body where !lock.withLock({ stopped }) {
                usleep(useconds_t(interval * 1_000_000))
                guard transmit([byte], on: connection) else {
                    lock.withLock { closedByClient += 1 }
                    return
                }
            }
            return
        }
        guard transmit(Array((head + "\r\n").utf8) + response.body, on: connection) else { return }
        while response.isEndless && !response.body.isEmpty && !lock.withLock({ stopped }) {
            guard transmit(response.body, on: connection) else { return }
        }
    }

    /// Writes everything, without SIGPIPE when the client has gone (an endless response ends so).
    private func transmit(_ bytes: [UInt8], on connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

private extension Array where Element == UInt8 {
    func contains(sequence: [UInt8]) -> Bool {
        guard count >= sequence.count else { return false }
        return (0...(count - sequence.count)).contains { self[$0..<($0 + sequence.count)].elementsEqual(sequence) }
    }
}
