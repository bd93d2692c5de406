import Foundation
import GRDB
import GRDBSQLite
import HybridFiles
import HybridJSON

/// One app's SQLite database (SPEC §7.3) through GRDB: statements with bound params only,
/// rows as JSON objects by column name (`SQLValues`), SQLite's refusals as `SQLError`s. One
/// connection, serialized by GRDB's `DatabaseQueue`, so scripts and the host share it.
public final class AppDatabase: Sendable {
    /// The file it lives in.
    public let path: String
    let queue: DatabaseQueue
    private let capture = ChangeCapture()

    /// The database in the file at `path` (made, with its folder, when missing).
    public init(path: String) throws(SQLError) {
        self.path = path
        do {
            try FileSystem.createFolder(FileSystem.parentFolder(of: path))
            var configuration = Configuration()
            // A script's db.transaction(fn) spans several sync calls (begin, fn's statements,
            // commit), each its own access: the transaction stays open between them. They all
            // run on the loop's thread with no await between, so nothing else comes inside.
            configuration.allowsUnsafeTransactions = true
            configuration.busyMode = .timeout(Self.lockWait)
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw SQLError(error)
        } catch {
            throw SQLError("\(path): cannot open the database: \(error)")
        }
    }

    /// How long a statement waits for a lock another connection holds (the app running twice,
    /// a tool reading the file) before it fails with `SQLError.isLocked`.
    public static let lockWait: TimeInterval = 2

    /// The database of `app`: `app.sqlite` in its data folder (`AppDataFolder`).
    public static func forApp(_ app: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(SQLError) -> AppDatabase {
        guard let path = path(forApp: app, environment: environment) else {
            throw SQLError("the app name \"\(app)\" is not a plain folder name, so it has no database")
        }
        return try AppDatabase(path: path)
    }

    /// Where the database of `app` lives, without opening it; nil for a name that is not a
    /// plain folder name.
    public static func path(forApp app: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        AppDataFolder.path(for: app, environment: environment).map { FileSystem.join($0, "app.sqlite") }
    }

    /// The rows `sql` gives with `params` (an array for `?`, an object for `:name`).
    public func query(_ sql: String, params: JSONValue = .null) throws(SQLError) -> [JSONValue] {
        try run { db in try Self.query(sql, params: params, in: db) }
    }

    /// Runs `sql` with `params`: `{changes, lastInsertRowId}`.
    public func exec(_ sql: String, params: JSONValue = .null) throws(SQLError) -> JSONValue {
        try run { db in try Self.exec(sql, params: params, in: db) }
    }

    /// Runs `sql` once per params of `paramsList`, all in one transaction (none if one fails):
    /// `{changes}`.
    public func batch(_ sql: String, paramsList: [JSONValue]) throws(SQLError) -> JSONValue {
        try run { db in try Self.batch(sql, paramsList: paramsList, in: db) }
    }

    /// Opens a transaction that later statements run in until `commit()` or `rollback()`: how a
    /// script's `db.transaction(fn)` spans its `tx` calls. `IMMEDIATE` takes the write lock at
    /// once, so the transaction cannot fail halfway for want of it.
    public func begin() throws(SQLError) {
        _ = try exec("BEGIN IMMEDIATE")
    }

    /// Commits the transaction `begin()` opened.
    public func commit() throws(SQLError) {
        _ = try exec("COMMIT")
    }

    /// Rolls back the transaction `begin()` opened, if it is still open (SQLite rolls some
    /// failures back by itself).
    public func rollback() throws(SQLError) {
        let open = try run { db in db.isInsideTransaction }
        if open { _ = try exec("ROLLBACK") }
    }

    /// The rows of `sql` on the connection `db` (a statement, a watch's query again).
    /// The statement is compiled once per connection and kept (a query is asked again and again:
    /// by a list, by a watch after each commit).
    static func query(_ sql: String, params: JSONValue, in db: Database) throws -> [JSONValue] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: SQLValues.arguments(params)).map(SQLValues.object)
    }

    /// `sql` run on the connection `db`: `{changes, lastInsertRowId}`.
    static func exec(_ sql: String, params: JSONValue, in db: Database) throws -> JSONValue {
        try db.execute(sql: sql, arguments: SQLValues.arguments(params))
        return .object(JSONObject([("changes", .integer(db.changesCount)), ("lastInsertRowId", SQLValues.json(db.lastInsertedRowID.databaseValue))]))
    }

    /// `sql` run once per params of `paramsList` inside `db`, in one savepoint: `{changes}`.
    static func batch(_ sql: String, paramsList: [JSONValue], in db: Database) throws -> JSONValue {
        var changes = 0
        try db.inSavepoint {
            let statement = try db.makeStatement(sql: sql)
            // Once GRDB has checked an array of params against the statement, arrays of the same
            // length are bound in place (`bindInPlace`); anything else is checked again.
            var checkedCount: Int?
            for (index, params) in paramsList.enumerated() {
                do {
                    if case .array(let values) = params, values.count == checkedCount {
                        try bindInPlace(values, to: statement)
                    } else {
                        try statement.setArguments(SQLValues.arguments(params))
                        if case .array(let values) = params { checkedCount = values.count } else { checkedCount = nil }
                    }
                    // Through GRDB, which tells the watches what the statement changed.
                    try statement.execute()
                } catch {
                    throw SQLError("params \(index): " + Self.sqlError(error).message, statement: sql)
                }
                changes += db.changesCount
            }
            return .commit
        }
        return .object(JSONObject([("changes", .integer(changes))]))
    }

    /// Binds `values` to `statement`'s `?` params in order, without making GRDB's arguments:
    /// a batch's rows, each as many values as the first row GRDB checked. Per row, that saves
    /// more than SQLite's own insert costs.
    private static func bindInPlace(_ values: [JSONValue], to statement: GRDB.Statement) throws {
        // Binding needs a statement reset since it last ran.
        sqlite3_reset(statement.sqliteStatement)
        for (offset, value) in values.enumerated() {
            let code = try SQLValues.databaseValue(value, place: "$[\(offset)]").bind(to: statement.sqliteStatement, at: CInt(offset + 1))
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind param $[\(offset)]") }
        }
    }

    /// From now on, rows `operation` changes in `table` are caught by `capturingChanges` (what
    /// a script's `db.handler` stands on).
    /// - Throws: `SQLError` when `table` is not a table of the database.
    public func catchChanges(of table: String, _ operation: RowChange.Operation) throws(SQLError) {
        try run { db in try capture.start(table: table, operation: operation, in: db) }
    }

    /// Stops catching what `operation` does to `table`.
    public func stopCatchingChanges(of table: String, _ operation: RowChange.Operation) throws(SQLError) {
        try run { db in try capture.stop(table: table, operation: operation, in: db) }
    }

    /// A statement as a script sends it.
    public enum Statement: Sendable {
        case query(String, params: JSONValue)
        case exec(String, params: JSONValue)
        case batch(String, paramsList: [JSONValue])
    }

    /// A statement run by `capturingChanges`: what it answered (rows, `{changes,
    /// lastInsertRowId}` or `{changes}`), the rows it changed in the tables caught, and whether
    /// it left a transaction open for them.
    public struct Caught: Sendable {
        public var value: JSONValue
        public var changes: [RowChange]
        /// The statement ran outside any transaction and changed rows that are caught: the
        /// transaction opened around it is still open, for the caller to act on the changes
        /// inside it, then `commit()` or `rollback()`.
        public var leftOpen: Bool
    }

    /// Runs `statement` with the rows it changes caught (`catchChanges`): inside the open
    /// transaction, if there is one; otherwise in a transaction of its own, committed at once
    /// when nothing caught changed and left open when something did.
    public func capturingChanges(_ statement: Statement) throws(SQLError) -> Caught {
        let body = { (db: Database) throws -> JSONValue in
            switch statement {
            case .query(let sql, let params): .array(try Self.query(sql, params: params, in: db))
            case .exec(let sql, let params): try Self.exec(sql, params: params, in: db)
            case .batch(let sql, let paramsList): try Self.batch(sql, paramsList: paramsList, in: db)
            }
        }
        return try run { db in
            let opens = !db.isInsideTransaction
            if opens { try db.execute(sql: "BEGIN") }
            do {
                let (value, changes) = try capture.catching { try body(db) }
                if opens && changes.isEmpty { try db.execute(sql: "COMMIT") }
                return Caught(value: value, changes: changes, leftOpen: opens && !changes.isEmpty)
            } catch {
                if opens && db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
                throw error
            }
        }
    }

    /// Copies the whole database into the file at `path` (replaced), consistently.
    public func copy(to path: String) throws(SQLError) {
        do {
            if FileSystem.exists(path) { _ = unlink(path) }
            let destination = try DatabaseQueue(path: path)
            try queue.backup(to: destination)
        } catch {
            throw Self.backupError(error)
        }
    }

    /// Replaces the whole database with the copy in the file at `path`.
    public func restore(from path: String) throws(SQLError) {
        do {
            let source = try DatabaseQueue(path: path)
            try source.backup(to: queue)
        } catch {
            throw Self.backupError(error)
        }
    }

    /// `sqlError(error)` for a copy's failure, said by its result code (see `SQLError.init`).
    private static func backupError(_ error: any Error) -> SQLError {
        guard let error = error as? DatabaseError else { return sqlError(error) }
        return SQLError(error, ownMessage: false)
    }

    /// Runs `body` on the connection, each statement its own transaction.
    private func run<Value>(_ body: (Database) throws -> Value) throws(SQLError) -> Value {
        do {
            return try queue.writeWithoutTransaction(body)
        } catch {
            throw Self.sqlError(error)
        }
    }

    static func sqlError(_ error: any Error) -> SQLError {
        switch error {
        case let error as SQLError: return error
        case let error as DatabaseError: return SQLError(error)
        default: return SQLError("\(error)")
        }
    }
}
