import GRDB
import GRDBSQLite

/// A statement SQLite refused or could not run (SPEC §7.3 `E_SQL`): SQLite's own message, and
/// the statement when there is one.
public struct SQLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in SQLite's words where SQLite said it.
    public var message: String
    /// The SQL of the statement that failed, when known.
    public var statement: String?
    /// Whether another connection held the database locked for longer than
    /// `AppDatabase.lockWait` (SQLite's `SQLITE_BUSY` or `SQLITE_LOCKED`): the app running
    /// twice, say, rather than anything wrong with the statement or the data.
    public var isLocked = false

    public init(_ message: String, statement: String? = nil) {
        self.message = message
        self.statement = statement
    }

    /// SQLite's error, with its message and the statement.
    ///
    /// - Parameter ownMessage: Whether the error's message is about it. A backup step's failure
    ///   comes with its connection's last message, which is another call's ("not an error", "no
    ///   more rows available"): its result code says what went wrong.
    init(_ error: DatabaseError, ownMessage: Bool = true) {
        let message = ownMessage ? error.message : nil
        self.init(message ?? String(cString: sqlite3_errstr(error.extendedResultCode.rawValue)), statement: error.sql)
        isLocked = error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    public var description: String { message }
}
