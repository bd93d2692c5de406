import Foundation
import HybridHTTP
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

/// `net.request` over the process's shared HTTP transport (HTTP and HTTPS): checks the script's
/// parameters, sends, and says what failed in the script's terms.
enum NetRequest {
    /// When the script gives no `timeout`. The transport holds the request to it as a deadline,
    /// so the service is registered without a registry timeout of its own (which would cut off a
    /// longer `timeout` the script asked for).
    static let defaultTimeout = 30.0
    /// The longest `timeout` taken; a longer one is cut to it (no script waits a day for an answer).
    static let maximumTimeout = 86_400.0
    /// The largest body read: the answer becomes one JavaScript string.
    static let maximumBodySize = 16 << 20

    static func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", !(url.host ?? "").isEmpty else {
            throw ServiceError(.badParams, "net.request: field \"url\": expected an http:// or https:// URL, got \"\(request.url)\"")
        }
        let asked = request.timeout ?? defaultTimeout
        guard asked > 0, asked.isFinite else {
            throw ServiceError(.badParams, "net.request: field \"timeout\": expected a number of seconds above 0, got \(asked)")
        }
        let timeout = min(asked, maximumTimeout)
        let outgoing = HTTPTransport.Request(
            method: request.method ?? "GET", url: url,
            headers: (request.headers ?? [:]).sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            body: request.body.map { Array($0.utf8) }, timeout: .milliseconds((timeout * 1000).rounded(.up)), bodyLimit: maximumBodySize)
        do {
            let response = try await HTTPTransport.shared.send(outgoing)
            var headers: [String: String] = [:]
            for (name, value) in response.headers {
                // A repeated header reads as one, its values joined (RFC 9110 §5.3).
                let name = name.lowercased()
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            return HTTPResponse(status: response.status, headers: headers, body: String(decoding: response.body, as: UTF8.self))
        } catch .timedOut {
            throw ServiceError(.timeout, "net.request: \(request.url): timed out after \(formatDuration(timeout))")
        } catch .invalidRequest(let reason) {
            throw ServiceError(.badParams, "net.request: \(reason)")
        } catch {
            throw ServiceError(.failed, "net.request: \(request.url): \(error)")
        }
    }
}
