import Foundation
import HybridHTTP

/// One HTTP GET streamed to a file, refusing to read past `limit` bytes: a server that
/// announces more is refused before the body, one that sends more is cut off, one that sends
/// less than it announced is a truncated download. The whole GET has a deadline, not an idle
/// timer: a server dripping a byte every second cannot hold its caller (start-up) past it.
/// The transport (HybridHTTP) enforces all three; this turns its failures into `BundleError`s.
enum Download {
    /// Progress as `(received, expected)`; `expected` is `nil` when the server did not say.
    typealias Progress = @Sendable (Int, Int?) -> Void

    /// `10 s`, `0.5 s`: a deadline in messages.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }

    /// What came back: the status and, for 200, the body's file.
    struct Response: Sendable {
        var status: Int
        var file: String?
    }

    /// GETs `url` into `destination` (created new), at most `limit` bytes, all of it within
    /// `deadline` seconds — or by `end`, when the caller's deadline covers several downloads
    /// (`deadline` is then the whole allowance, for the message). A status other than 200
    /// answers without a file (its body unread).
    static func fetch(_ url: URL, to destination: String, limit: Int, deadline: Double, end: Date? = nil,
                      progress: Progress? = nil) async throws(BundleError) -> Response {
        let left = end?.timeIntervalSinceNow ?? deadline
        guard left > 0 else {
            throw BundleError(.download, file: url.absoluteString, "did not finish within \(Download.seconds(deadline))")
        }
        let wait = left.isFinite ? min(left, 86_400) : 86_400
        let request = HTTPTransport.Request(url: url, timeout: .milliseconds((wait * 1000).rounded(.up)), bodyLimit: limit)
        let file = FileSink(path: destination, progress: progress)
        defer { file.close() }
        do {
            let head = try await HTTPTransport.shared.send(request) { head in
                guard head.status == 200 else { return nil }
                try file.open(expecting: head.expectedLength)
                return file
            }
            return Response(status: head.status, file: head.status == 200 ? destination : nil)
        } catch {
            file.close()
            try? FileManager.default.removeItem(atPath: destination)
            throw describe(error, url: url, deadline: deadline)
        }
    }

    /// A failure of the transport (or the file) as the bundle error a user reads.
    private static func describe(_ error: any Error, url: URL, deadline: Double) -> BundleError {
        let name = url.absoluteString
        switch error {
        case let error as BundleError:
            return error
        case let failure as HTTPTransport.Failure:
            switch failure {
            case .timedOut(let received):
                let got = received > 0 ? " (\(received) bytes arrived)" : ""
                return BundleError(.download, file: name, "did not finish within \(Download.seconds(deadline))\(got)")
            case .tooLarge: return BundleError(.tooLarge, file: name, failure.description)
            case .truncated: return BundleError(.download, file: name, failure.description)
            default: return BundleError(.download, file: name, "the download failed: \(failure)")
            }
        default:
            return BundleError(.download, file: name, "the download failed: \(error)")
        }
    }

    /// The download's file, opened once the answer is known to be a 200 and written chunk by
    /// chunk. The transport calls it from the request's task only; `close` runs after it.
    private final class FileSink: BodySink, @unchecked Sendable {
        let path: String
        let progress: Progress?
        private var handle: FileHandle?
        private var expected: Int?
        private var received = 0

        init(path: String, progress: Progress?) {
            self.path = path
            self.progress = progress
        }

        func open(expecting expected: Int?) throws(BundleError) {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw BundleError(.cannotWrite, file: path, "cannot create the download file")
            }
            self.handle = handle
            self.expected = expected
            progress?(0, expected)
        }

        func receive(_ bytes: [UInt8]) throws {
            do {
                try handle?.write(contentsOf: Data(bytes))
            } catch {
                throw BundleError(.cannotWrite, file: path, "cannot write the download file")
            }
            received += bytes.count
            progress?(received, expected)
        }

        func close() {
            try? handle?.close()
            handle = nil
        }
    }
}
