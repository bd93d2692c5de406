import Foundation

extension HTTPTransport {
    /// The head of an answer: what a caller streaming the body decides on before reading it.
    public struct Head: Sendable {
        /// The status code (200, 404, …).
        public var status: Int
        /// As received, in order; names keep the server's case.
        public var headers: [(name: String, value: String)]
        /// The URL that answered, after redirects.
        public var url: URL
        /// The body's size from `Content-Length`, when the server announced one.
        public var expectedLength: Int?

        /// The first value of header `name`, whatever its case.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// A whole answer: its head and every byte of its body.
    public struct Response: Sendable {
        public var head: Head
        public var body: [UInt8]

        public var status: Int { head.status }
        public var headers: [(name: String, value: String)] { head.headers }
    }
}
