import Foundation

extension HTTPTransport {
    /// One request as the transport sends it: everything a caller decides (its deadline and how
    /// much it will read included), so the transport itself holds no policy.
    public struct Request: Sendable {
        /// `GET`, `POST`, … (any token; sent upper-cased).
        public var method: String
        /// An absolute `http://` or `https://` URL.
        public var url: URL
        /// Sent in order; a name may repeat.
        public var headers: [(name: String, value: String)]
        /// The body's bytes, or `nil` for none.
        public var body: [UInt8]?
        /// When the whole exchange (connecting, every redirect, the last byte of the body) must be
        /// over; past it the request is cancelled and its connection closed.
        public var deadline: ContinuousClock.Instant
        /// The most body bytes read: an answer announcing more is refused before its body, one
        /// sending more is cut off.
        public var bodyLimit: Int
        /// Redirects followed before the request fails; 0 hands a redirect back as the answer.
        public var redirectLimit: Int

        /// A request that must be over `timeout` from now (a timeout over a day is cut to a day).
        public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
                    timeout: Duration, bodyLimit: Int, redirectLimit: Int = HTTPTransport.defaultRedirectLimit) {
            self.init(method: method, url: url, headers: headers, body: body,
                      deadline: .now + min(timeout, .seconds(86_400)), bodyLimit: bodyLimit, redirectLimit: redirectLimit)
        }

        /// A request that must be over by `deadline` (one deadline can cover several requests).
        public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
                    deadline: ContinuousClock.Instant, bodyLimit: Int, redirectLimit: Int = HTTPTransport.defaultRedirectLimit) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.deadline = deadline
            self.bodyLimit = bodyLimit
            self.redirectLimit = redirectLimit
        }
    }
}
