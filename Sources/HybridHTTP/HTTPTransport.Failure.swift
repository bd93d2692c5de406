import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

extension HTTPTransport {
    /// Why a request failed, in words a person reads (never a NIO type's description or an
    /// error number alone), and by kind, so a caller can act on it: the API engine reads
    /// `cannotConnect` as offline, `timedOut` as `E_TIMEOUT`, `cancelled` as `E_CANCELLED`.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not an absolute http(s) URL, or a header the protocol cannot carry.
        case invalidRequest(String)
        /// No connection was made (refused, unknown host, unreachable network).
        case cannotConnect(host: String, port: Int, reason: String)
        /// The deadline passed; `received` body bytes had arrived.
        case timedOut(received: Int)
        /// The body is over the caller's limit: announced (`announced` set) or sent.
        case tooLarge(announced: Int?, limit: Int)
        /// The connection closed before the announced body was all there.
        case truncated(received: Int, expected: Int)
        /// A redirect to something other than http(s), not followed.
        case redirectRefused(to: String)
        /// More redirects than the request allows.
        case tooManyRedirects(limit: Int)
        /// The connection broke after it was made.
        case connectionLost(received: Int, reason: String)
        /// The TLS handshake or certificate check failed.
        case secureConnectionFailed(String)
        /// The server's answer was not HTTP the client can read.
        case badResponse(String)
        /// The calling task was cancelled; the request and its connection are closed.
        case cancelled

        public var description: String {
            switch self {
            case .invalidRequest(let reason): reason
            case .cannotConnect(let host, let port, let reason): "cannot connect to \(host):\(port): \(reason)"
            case .timedOut(let received): "no answer before the deadline" + (received > 0 ? " (\(received) bytes arrived)" : "")
            case .tooLarge(let announced?, let limit): "announces \(announced) bytes, more than the \(limit) allowed"
            case .tooLarge(nil, let limit): "sent more than the \(limit) bytes allowed"
            case .truncated(let received, let expected): "truncated: got \(received) of \(expected) bytes"
            case .redirectRefused(let target): "redirected to \(target), which is not an http:// or https:// URL (not followed)"
            case .tooManyRedirects(let limit): "more than \(limit) redirects (not followed)"
            case .connectionLost(let received, let reason): "the connection was lost" + (received > 0 ? " after \(received) bytes" : "") + ": \(reason)"
            case .secureConnectionFailed(let reason): "the secure connection failed: \(reason)"
            case .badResponse(let reason): "the server's answer was not valid HTTP: \(reason)"
            case .cancelled: "cancelled"
            }
        }

        /// `error`, thrown by AsyncHTTPClient or SwiftNIO while `url` was in flight with
        /// `received` body bytes read, as a failure in words.
        static func from(_ error: any Error, url: URL, received: Int) -> Failure {
            let host = url.host ?? "?"
            let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
            switch error {
            case let failure as Failure:
                return failure
            case is CancellationError:
                return .cancelled
            case let error as HTTPClientError:
                return from(error, host: host, port: port, received: received)
            case let error as NIOConnectionError:
                guard let first = error.connectionErrors.first else {
                    return .cannotConnect(host: host, port: port, reason: "the host name could not be resolved")
                }
                return from(first.error, url: url, received: received)
            case is SocketAddressError:
                return .cannotConnect(host: host, port: port, reason: "the host name could not be resolved")
            case let error as IOError:
                return received == 0 && error.errnoCode == ECONNREFUSED
                    ? .cannotConnect(host: host, port: port, reason: "connection refused")
                    : .connectionLost(received: received, reason: words(errno: error.errnoCode))
            case ChannelError.connectTimeout:
                return .cannotConnect(host: host, port: port, reason: "no answer to the connection attempt")
            case let error as ChannelError:
                return .connectionLost(received: received, reason: error == .eof ? "closed by the server" : "closed (\(error))")
            case let error as HTTPParserError:
                return .badResponse("\(error)")
            case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
                return .secureConnectionFailed("\(error)")
            default:
                return .connectionLost(received: received, reason: "\(error)")
            }
        }

        private static func from(_ error: HTTPClientError, host: String, port: Int, received: Int) -> Failure {
            switch error {
            case .cancelled: .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout: .timedOut(received: received)
            case .connectTimeout, .getConnectionFromPoolTimeout:
                .cannotConnect(host: host, port: port, reason: "no answer to the connection attempt")
            case .tlsHandshakeTimeout: .secureConnectionFailed("no answer to the TLS handshake")
            case .remoteConnectionClosed: .connectionLost(received: received, reason: "closed by the server")
            case .invalidURL, .emptyHost, .emptyScheme: .invalidRequest("not an absolute http:// or https:// URL")
            default: .badResponse("\(error)")
            }
        }

        /// An errno in words: the C library's text, the way a person reads it.
        private static func words(errno code: CInt) -> String {
            switch code {
            case ECONNRESET: "reset by the server"
            case EPIPE: "closed by the server"
            case ETIMEDOUT: "no answer"
            case ENETUNREACH: "the network is unreachable"
            case EHOSTUNREACH: "the host is unreachable"
            default: String(cString: strerror(code)).lowercased()
            }
        }
    }
}
