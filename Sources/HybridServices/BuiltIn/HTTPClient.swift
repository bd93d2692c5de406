import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HybridJSON

/// The parameters of `net.request`.
struct HTTPRequest: Codable, Sendable {
    var url: String
    var method: String?
    var headers: [String: String]?
    var body: String?
    /// Seconds.
    var timeout: Double?
}

/// The answer of `net.request`.
struct HTTPResponse: Codable, Sendable {
    var status: Int
    var headers: [String: String]
    var body: String
}

/// `net.request` over Foundation's URLSession (HTTP and HTTPS).
enum HTTPClient {
    /// When the script gives no `timeout`. URLSession enforces it, so the service is registered
    /// without a registry timeout of its own (which would cut off a longer `timeout` the script asked for).
    static let defaultTimeout = 30.0
    /// The longest `timeout` taken; a longer one is cut to it (Foundation traps on the huge ones,
    /// and no script waits a day for an answer).
    static let maximumTimeout = 86_400.0

    static func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else {
            throw ServiceError(.badParams, "net.request: field \"url\": expected an http:// or https:// URL, got \"\(request.url)\"")
        }
        let asked = request.timeout ?? defaultTimeout
        guard asked > 0, asked.isFinite else {
            throw ServiceError(.badParams, "net.request: field \"timeout\": expected a number of seconds above 0, got \(asked)")
        }
        let timeout = min(asked, maximumTimeout)
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = (request.method ?? "GET").uppercased()
        for (name, value) in request.headers ?? [:] {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body.map { Data($0.utf8) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw ServiceError(.failed, "net.request: \(request.url) answered without HTTP")
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name).lowercased()] = String(describing: value)
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: String(decoding: data, as: UTF8.self))
        } catch let error as ServiceError {
            throw error
        } catch {
            // Foundation on Linux throws `NSError`s of `NSURLErrorDomain` as often as `URLError`s.
            let error = error as NSError
            guard error.domain == NSURLErrorDomain else { throw ServiceError(.failed, "net.request: \(request.url): \(error.localizedDescription)") }
            if error.code == URLError.timedOut.rawValue {
                throw ServiceError(.timeout, "net.request: \(request.url) did not answer within \(formatDuration(timeout))")
            }
            throw ServiceError(.failed, "net.request: \(request.url): \(Self.describe(error)) (URLError \(error.code))")
        }
    }

    /// A plain description of the common network failures (Foundation's own texts on Linux are
    /// often just the domain and the number).
    private static func describe(_ error: NSError) -> String {
        switch URLError.Code(rawValue: error.code) {
        case .cannotConnectToHost: "the connection was refused"
        case .cannotFindHost, .dnsLookupFailed: "the host name could not be resolved"
        case .networkConnectionLost: "the connection was lost"
        case .notConnectedToInternet: "there is no network connection"
        // Foundation ends a redirect to another scheme (file://, ftp://) this way too, unfollowed.
        case .httpTooManyRedirects: "too many redirects, or a redirect to a URL that is not http:// or https:// (not followed)"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            "the secure connection failed"
        case .badServerResponse: "the server's answer was not valid HTTP"
        default: error.localizedDescription
        }
    }
}
