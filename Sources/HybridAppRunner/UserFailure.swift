/// A failure already reported on standard error; only the exit status is left to set.
public struct UserFailure: Error {
    /// The exit status (1: a user error, SPEC §6).
    public var status: Int32

    /// A failure ending with `status`, its message already written.
    public init(status: Int32 = 1) {
        self.status = status
    }

    /// Writes `message` (one line or several) on standard error and answers the failure to
    /// throw after it: how every command reports a user error, in one statement —
    /// `throw UserFailure.reporting("hybrid bundle pack: \(error)")`.
    public static func reporting(_ message: String) -> UserFailure {
        FileHandleOutput.standardError(message)
        return UserFailure()
    }
}
