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

    static func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else {
            throw ServiceError(.badParams, "net.request: field \"url\": expected an http:// or https:// URL, got \"\(request.url)\"")
        }
        let timeout = request.timeout ?? defaultTimeout
        guard timeout > 0, timeout.isFinite else { throw ServiceError(.badParams, "net.request: field \"timeout\": expected a number of seconds above 0, got \(formatDuration(timeout))") }
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
        } catch let error as URLError where error.code == .timedOut {
            throw ServiceError(.timeout, "net.request: \(request.url) did not answer within \(formatDuration(timeout))")
        } catch let error as URLError {
            throw ServiceError(.failed, "net.request: \(request.url): \(error.localizedDescription) (URLError \(error.code.rawValue))")
        }
    }
}
