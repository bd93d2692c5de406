import GRDB

/// A statement SQLite refused or could not run (SPEC §7.3 `E_SQL`): SQLite's own message, and
/// the statement when there is one.
public struct SQLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in SQLite's words where SQLite said it.
    public var message: String
    /// The SQL of the statement that failed, when known.
    public var statement: String?

    public init(_ message: String, statement: String? = nil) {
        self.message = message
        self.statement = statement
    }

    /// SQLite's error, with its message and the statement.
    init(_ error: DatabaseError) {
        self.init(error.message ?? "\(error.resultCode)", statement: error.sql)
    }

    public var description: String { message }
}
