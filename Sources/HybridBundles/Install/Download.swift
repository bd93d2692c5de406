import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET streamed to a file, refusing to read past `limit` bytes: a server that
/// announces more is refused before the body, one that sends more is cut off, one that sends
/// less than it announced is a truncated download. The whole GET has a deadline, not an idle
/// timer: a server dripping a byte every second cannot hold its caller (start-up) past it.
enum Download {
    /// Progress as `(received, expected)`; `expected` is `nil` when the server did not say.
    typealias Progress = @Sendable (Int, Int?) -> Void

    /// `10 s`, `0.5 s`: a deadline in messages.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }

    /// A URL error in words (FoundationNetworking's own text is often "(null)" or a bare code).
    static func reason(_ error: URLError) -> String {
        let words: String
        switch error.code {
        case .timedOut: words = "no answer in time"
        case .cannotConnectToHost: words = "cannot connect to the server"
        case .cannotFindHost, .dnsLookupFailed: words = "cannot find the server"
        case .networkConnectionLost: words = "the connection was lost"
        case .notConnectedToInternet: words = "not connected to a network"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: words = "too many or broken redirects"
        case .unsupportedURL: words = "not an http(s) URL"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            words = "the secure connection failed"
        default: words = "network error"
        }
        return "\(words) (URLError \(error.code.rawValue))"
    }

    /// What came back: the status and, for 200, the body's file.
    struct Response: Sendable {
        var status: Int
        var file: String?
    }

    /// GETs `url` into `destination` (created new), at most `limit` bytes, all of it within
    /// `deadline` seconds — or by `end`, when the caller's deadline covers several downloads
    /// (`deadline` is then the whole allowance, for the message). A status other than 200
    /// answers without a file.
    static func fetch(_ url: URL, to destination: String, limit: Int, deadline: Double, end: Date? = nil,
                      progress: Progress? = nil) async throws(BundleError) -> Response {
        let left = end?.timeIntervalSinceNow ?? deadline
        guard left > 0 else {
            throw BundleError(.download, file: url.absoluteString, "did not finish within \(Download.seconds(deadline))")
        }
        let wait = left.isFinite ? min(left, 86_400) : 86_400
        let receiver = Receiver(url: url, destination: destination, limit: limit, deadline: deadline, progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        // FoundationNetworking counts this idle timeout in whole seconds (0.9 would be none at
        // all); the deadline below is the real bound.
        configuration.timeoutIntervalForRequest = max(1, wait.rounded(.up))
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // One serial queue for every callback and for the deadline, so they never overlap.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: url)
        let result = await withCheckedContinuation { continuation in
            receiver.start(task, continuation: continuation)
            DispatchQueue.global().asyncAfter(deadline: .now() + wait) {
                queue.addOperation { receiver.expire(task) }
            }
        }
        switch result {
        case .success(let response): return response
        case .failure(let error):
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }

    /// The delegate collecting one task's body; its state is touched on the session's serial
    /// delegate queue only (the deadline included), and the lock covers the hand-over at the
    /// start. It answers once: at the task's end or at the deadline, whichever comes first.
    private final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let url: URL
        let destination: String
        let limit: Int
        let deadline: Double
        let progress: Progress?
        private var continuation: CheckedContinuation<Result<Response, BundleError>, Never>?
        private var handle: FileHandle?
        private var status = 0
        private var expected: Int?
        private var received = 0
        private var failure: BundleError?
        private let lock = NSLock()

        init(url: URL, destination: String, limit: Int, deadline: Double, progress: Progress?) {
            self.url = url
            self.destination = destination
            self.limit = limit
            self.deadline = deadline
            self.progress = progress
        }

        func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<Result<Response, BundleError>, Never>) {
            lock.withLock { self.continuation = continuation }
            task.resume()
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            guard failure == nil else { return completionHandler(.cancel) }
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200 else { return completionHandler(.cancel) }
            let length = response.expectedContentLength
            expected = length >= 0 ? Int(length) : nil
            if let expected, expected > limit {
                failure = BundleError(.tooLarge, file: url.absoluteString, "announces \(expected) bytes, more than the \(limit) allowed")
                return completionHandler(.cancel)
            }
            guard FileManager.default.createFile(atPath: destination, contents: nil), let handle = FileHandle(forWritingAtPath: destination) else {
                failure = BundleError(.cannotWrite, file: destination, "cannot create the download file")
                return completionHandler(.cancel)
            }
            self.handle = handle
            progress?(0, expected)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard failure == nil, let handle else { return }
            received += data.count
            guard received <= limit else {
                failure = BundleError(.tooLarge, file: url.absoluteString, "sent more than the \(limit) bytes allowed")
                dataTask.cancel()
                return
            }
            do {
                try handle.write(contentsOf: data)
            } catch {
                failure = BundleError(.cannotWrite, file: destination, "cannot write the download file")
                dataTask.cancel()
                return
            }
            progress?(received, expected)
        }

        /// The deadline passed: the download fails now, whatever the server is still sending.
        func expire(_ task: URLSessionTask) {
            guard failure == nil else { return }
            let got = received > 0 ? " (\(received) bytes arrived)" : ""
            failure = BundleError(.download, file: url.absoluteString, "did not finish within \(Download.seconds(deadline))\(got)")
            task.cancel()
            finish(with: .failure(failure!))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            let result: Result<Response, BundleError>
            if let failure {
                result = .failure(failure)
            } else if status != 0 && status != 200 {
                result = .success(Response(status: status, file: nil))
            } else if let expected, received < expected {
                result = .failure(BundleError(.download, file: url.absoluteString, "truncated: got \(received) of \(expected) bytes"))
            } else if let error {
                let reason = (error as? URLError).map(Download.reason) ?? "\(error)"
                let got = received > 0 ? " after \(received) bytes" : ""
                result = .failure(BundleError(.download, file: url.absoluteString, "the download failed\(got): \(reason)"))
            } else {
                result = .success(Response(status: 200, file: destination))
            }
            finish(with: result)
        }

        /// Closes the file and answers, once.
        private func finish(with result: Result<Response, BundleError>) {
            try? handle?.close()
            handle = nil
            let continuation = lock.withLock { () -> CheckedContinuation<Result<Response, BundleError>, Never>? in
                defer { self.continuation = nil }
                return self.continuation
            }
            continuation?.resume(returning: result)
        }
    }
}
