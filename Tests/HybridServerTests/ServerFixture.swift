import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HybridBundles
@testable import HybridServer
import Logging
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A folder of bundles served in-process on a free loopback port, fetched with URLSession (and,
/// for paths a URL library would normalise, with a raw socket).
@available(macOS 14, *)
final class ServerFixture: @unchecked Sendable {
    /// The served folder, removed when the fixture goes.
    private let directory: TemporaryDirectory
    var folder: URL { directory.url }
    /// The key the signed bundles are signed with.
    let key = BundleKey()
    let log = LogCapture()
    private(set) var server: BundleServer!
    private(set) var port = 0
    private let session: URLSession

    init() throws {
        directory = try TemporaryDirectory("hybrid-serve")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    /// Starts serving `folder` on port 0.
    func start(changesTimeout: Duration = .seconds(20)) async throws {
        var options = BundleServer.Options(host: "127.0.0.1", port: 0)
        options.changesTimeout = changesTimeout
        let capture = log
        let logger = Logger(label: "test.serve") { _ in capture }
        server = try BundleServer(path: folder.path, options: options, logger: logger)
        port = try await server.start()
    }

    /// Returns once `count` long polls are waiting on the server (failing after 30 s).
    func waitForPolls(_ count: Int, file: StaticString = #filePath, line: UInt = #line) async throws {
        for _ in 0..<3000 where server.waitingPolls < count {
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertEqual(server.waitingPolls, count, "long polls waiting", file: file, line: line)
    }

    func stop() async {
        await server?.stop()
        session.invalidateAndCancel()
    }

    // MARK: Bundles

    /// Writes an unsigned bundle folder `name` (app `app`), a start screen and a script.
    @discardableResult
    func makeFolder(_ name: String, app: String? = nil, version: String = "1.0.0") throws -> URL {
        let bundle = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("screens"), withIntermediateDirectories: true)
        try write("""
            {"app": "\(app ?? name)", "version": "\(version)", "entry": "main.js", "start": "home", "screens": {"home": "screens/home.json"}}
            """, to: bundle.appendingPathComponent("manifest.json"))
        try write(#"{"root": {"type": "text", "text": "hello"}}"#, to: bundle.appendingPathComponent("screens/home.json"))
        try write("hybrid.ready();\n", to: bundle.appendingPathComponent("main.js"))
        return bundle
    }

    /// A signed bundle folder `name`; with `archive`, also packed to `DIR/ARCHIVE.hbundle`.
    @discardableResult
    func makeSignedFolder(_ name: String, archive: String? = nil) throws -> URL {
        let bundle = try makeFolder(name)
        _ = try BundleSigner(key: key).pack(folder: bundle.path)
        if let archive { try BundleSigner.writeArchive(ofSignedFolder: bundle.path, to: folder.appendingPathComponent(archive + ".hbundle").path) }
        return bundle
    }

    func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    // MARK: Fetching

    struct Answer {
        var status: Int
        var contentType: String?
        var contentLength: String?
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }

        func json() throws -> [String: Any] {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: body) as? [String: Any], text)
        }
    }

    /// `GET path` (already percent-encoded) over URLSession.
    func get(_ path: String) async throws -> Answer {
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)\(path)"))
        let (data, response) = try await session.data(from: url)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
                      contentLength: http.value(forHTTPHeaderField: "Content-Length"), body: data)
    }

    /// `GET path`, checking its status and, when given, that its text contains `saying`.
    @discardableResult
    func expect(_ path: String, _ status: Int, saying text: String? = nil, file: StaticString = #filePath, line: UInt = #line) async throws -> Answer {
        let answer = try await get(path)
        XCTAssertEqual(answer.status, status, "\(path): \(answer.text)", file: file, line: line)
        if let text { XCTAssertTrue(answer.text.contains(text), "\(path): \(answer.text)", file: file, line: line) }
        return answer
    }

    /// `GET path` sent byte for byte over a socket, so `..` and `//` reach the server as written.
    /// Returns the status and body.
    func rawGet(_ path: String) throws -> (status: Int, body: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0, "cannot connect to the server")
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        XCTAssertEqual(request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }, request.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }
}

/// Every log message, for checking what the server logs.
final class LogCapture: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [(Logger.Level, String)] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.lock()
        defer { lock.unlock() }
        lines.append((event.level, event.message.description))
    }

    /// The messages logged at `level`.
    func messages(at level: Logger.Level) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines.filter { $0.0 == level }.map(\.1)
    }
}
