import HybridJSON

/// Why a service call did not produce a result. Every call ends in a result or one of these.
public struct ServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error codes scripts see as `error.code` (SPEC §3).
    public enum Code: String, Sendable, CaseIterable {
        /// No service has that name.
        case noService = "E_NO_SERVICE"
        /// The parameters do not fit the service's description.
        case badParams = "E_BAD_PARAMS"
        /// The service needs a permission the caller was not granted.
        case denied = "E_DENIED"
        /// The service ran and failed.
        case failed = "E_FAILED"
        /// The call took longer than its timeout.
        case timeout = "E_TIMEOUT"
        /// An HTTP answer outside 200–299 (SPEC §7.1); `details` holds `status` and `data`.
        case http = "E_HTTP"
        /// The host could not be reached.
        case offline = "E_OFFLINE"
        /// The call was cancelled.
        case cancelled = "E_CANCELLED"
        /// A call of the same API is in flight and the API refuses another (`ignoreNew`).
        case duplicate = "E_DUPLICATE"
        /// SQLite refused a statement or could not run it (SPEC §7.3).
        case sql = "E_SQL"
    }

    /// What kind of failure.
    public var code: Code
    /// What went wrong and where, e.g. `cart.add: field "qty": expected an integer, got "two"`.
    public var message: String
    /// Members the script's error object gets besides `code` and `message` (an `E_HTTP`'s
    /// `status` and `data`).
    public var details: JSONObject?

    /// An error with a code, a message and, when given, more members for the script.
    public init(_ code: Code, _ message: String, details: JSONObject? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
