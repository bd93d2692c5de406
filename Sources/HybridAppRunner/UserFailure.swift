/// A failure already reported on standard error; only the exit status is left to set.
public struct UserFailure: Error {
    /// The exit status (1: a user error, SPEC §6).
    public var status: Int32

    /// A failure ending with `status`.
    public init(status: Int32 = 1) {
        self.status = status
    }
}
