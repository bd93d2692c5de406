#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file operation failed: what was tried on which path, and the system's reason.
///
/// Callers wrap it in their own error (`BundleError`, `ServiceError`), so the wording of the
/// failure itself is the same wherever the runtime writes or locks a file.
public struct FileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The path the operation was on.
    public var path: String
    /// What was tried, as a verb phrase: `write`, `lock`, `create the folder`.
    public var operation: String
    /// The system's reason (`strerror(errno)` at the time of the failure).
    public var reason: String

    /// A failure of `operation` on `path`, its reason read from `errno` now.
    public init(_ path: String, _ operation: String, reason: String = String(cString: strerror(errno))) {
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    /// `cannot OPERATION PATH: REASON`.
    public var description: String { "cannot \(operation) \(path): \(reason)" }
}
