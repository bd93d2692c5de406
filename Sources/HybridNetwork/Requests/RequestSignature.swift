import Crypto
import Foundation
import HybridJSON

/// The signature of a request to a service with `sign` (SPEC §7.1), written so a server in any
/// language can check it from the SPEC alone: HMAC-SHA256 under the host's secret of
/// `METHOD\nPATH\nQUERY\nBODYHASH\nTIMESTAMP\nNONCE`. The timestamp and a nonce new for every
/// request and try keep a captured request from being replayed.
public struct RequestSignature: Sendable, Equatable {
    /// Unix seconds when the request was signed (`X-Hybrid-Timestamp`).
    public var timestamp: Int
    /// 32 lowercase hex digits, new for every request and try (`X-Hybrid-Nonce`).
    public var nonce: String
    /// Lowercase hex HMAC-SHA256 (`X-Hybrid-Signature`).
    public var signature: String

    /// The three headers that carry it.
    public var headers: [(name: String, value: String)] {
        [("X-Hybrid-Timestamp", String(timestamp)), ("X-Hybrid-Nonce", nonce), ("X-Hybrid-Signature", signature)]
    }

    /// Signs `request` with `secret` at `timestamp` with `nonce` (fresh ones by default).
    public init(signing request: PreparedRequest, secret: String, timestamp: Int = Int(Date().timeIntervalSince1970),
                nonce: String = RequestSignature.freshNonce()) {
        self.timestamp = timestamp
        self.nonce = nonce
        let text = Self.signedText(method: request.method, path: request.sentPath, query: request.queryText, body: request.body ?? [],
                                   timestamp: timestamp, nonce: nonce)
        let code = HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        signature = HexDigits.lowercase(code)
    }

    /// `METHOD\nPATH\nQUERY\nBODYHASH\nTIMESTAMP\nNONCE`.
    static func signedText(method: String, path: String, query: String, body: [UInt8], timestamp: Int, nonce: String) -> String {
        [method, path, query, HexDigits.lowercase(SHA256.hash(data: body)), String(timestamp), nonce].joined(separator: "\n")
    }

    /// 16 random bytes as 32 lowercase hex digits.
    public static func freshNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return HexDigits.lowercase((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
