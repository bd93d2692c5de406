/// A failure already reported on standard error; only the exit status is left to set.
public struct UserFailure: Error {
    /// The exit status (1: a user error, 2: bad usage, SPEC §6).
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

    /// Bad usage found only once a command runs (an option's file holds the wrong kind of
    /// value): `Error: MESSAGE` on standard error, as the argument parser words its own, and
    /// exit status 2.
    public static func usage(_ message: String) -> UserFailure {
        FileHandleOutput.standardError("Error: " + message)
        return UserFailure(status: 2)
    }
}
