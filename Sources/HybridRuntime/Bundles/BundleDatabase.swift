import Foundation
import HybridBundles
import HybridFiles
import HybridDatabase
import HybridJSON
import HybridServices

/// A bundle's database (SPEC §7.3) as the `db.*` services scripts reach through the `db`
/// global, with the permission `db`: the app's one SQLite file, migrated by the bundle's
/// migrations before any of its scripts run (a failing one fails the start). Statements are
/// sync services: SQLite answers on the loop's thread, in the order scripts asked.
public enum BundleDatabase {
    /// A `db.query` or `db.exec` message.
    struct Statement: Decodable, Sendable {
        var sql: String
        var params: JSONValue?
    }

    /// A `db.batch` message: one statement, and its list of params as JSON text (see db.js).
    struct Batch: Decodable, Sendable {
        var sql: String
        var paramsList: String
    }

    /// A `db.capture` message: a statement as `db.query`, `db.exec` or `db.batch` sends it, run
    /// with the rows it changes caught for the script's `db.handler`s.
    struct Captured: Decodable, Sendable {
        var operation: String
        var sql: String
        var params: JSONValue?
        var paramsList: String?
    }

    /// A `db.handle` or `db.unhandle` message: the table and operation a `db.handler` is for.
    struct Handled: Decodable, Sendable {
        var table: String
        var op: String
    }

    /// A `db.watch` message: the script side's id for the watch, its query.
    struct Watch: Decodable, Sendable {
        var id: Int
        var sql: String
        var params: JSONValue?
    }

    /// A `db.unwatch` message.
    struct WatchID: Decodable, Sendable {
        var id: Int
    }

    /// Every service the database brings.
    static let serviceNames = ["db.query", "db.exec", "db.batch", "db.begin", "db.commit", "db.rollback", "db.watch", "db.unwatch",
                                     "db.capture", "db.handle", "db.unhandle"]

    /// Opens `folder`'s app database and migrates it, when its manifest has `database` or asks
    /// for the permission `db`, and registers the `db.*` services over it (removing an earlier
    /// bundle's when it has neither). Answers the database, for the host.
    /// - Parameter settingAside: Whether the start is judged (an installed version's), so that
    ///   a copy of the database is set aside before migrating, for `restore` should it fail. A
    ///   folder's run is never judged: a copy it left would be restored later, over everything
    ///   written since, by an installed version of the same number that failed.
    /// - Throws: `AppError` naming the migration (`FILE:LINE: message`) or the folder's problems.
    @discardableResult
    static func register(for folder: BundleFolder, settingAside: Bool, trace: (@Sendable (String) -> Void)? = nil,
                         in services: ServiceRegistry) throws(AppError) -> AppDatabase? {
        let manifest = folder.manifest
        guard manifest.database != nil || manifest.permissions.contains("db") else {
            serviceNames.forEach(services.unregister)
            return nil
        }
        let database: AppDatabase
        do throws(SQLError) {
            database = try AppDatabase.forApp(manifest.app)
        } catch {
            // SQLite's reasons ("file is not a database") do not name the file, which the user may have to move aside.
            let file = AppDatabase.path(forApp: manifest.app).map { " " + $0 } ?? ""
            throw lockAware(AppError("\(manifest.app): cannot open its database\(file): \(error.message)"), locked: error.isLocked)
        }
        if let relative = manifest.database?.migrations {
            guard let path = folder.filePath(for: relative) else { throw AppError("\(folder.path): the migrations folder \"\(relative)\" is not a usable path") }
            let migrations = MigrationFiles(folder: path)
            guard migrations.problems.isEmpty else { throw AppError(migrations.problems.joined(separator: "\n")) }
            // Boot safety covers data (SPEC §7.3): a version that migrates keeps the database as
            // it was, for the version that runs instead should this one be marked bad.
            let pending: [String]
            do throws(BundleMigrator.Failure) {
                pending = try BundleMigrator.pending(migrations.files, in: database)
            } catch {
                throw lockAware(AppError(error.description), locked: error.isLocked)
            }
            if settingAside, !pending.isEmpty {
                do throws(SQLError) {
                    try database.copy(to: copyPath(of: database.path, before: manifest.version.description))
                } catch {
                    throw lockAware(AppError("\(database.path): cannot set the database aside before migrating: \(error.message)"), locked: error.isLocked)
                }
            }
            do throws(BundleMigrator.Failure) {
                try BundleMigrator.migrate(database, with: migrations.files)
            } catch {
                throw lockAware(AppError(error.description), locked: error.isLocked)
            }
        }
        register(database, trace: trace, in: services)
        return database
    }

    /// `error`, said to be no fault of the bundle's when the database was `locked` by another
    /// process for longer than `AppDatabase.lockWait`.
    private static func lockAware(_ error: AppError, locked: Bool) -> AppError {
        guard locked else { return error }
        var error = error
        error.lines.append("another process holds the database locked (is the app running elsewhere?)")
        error.isTheBundles = false
        return error
    }

    /// Where the database at `path` is set aside before `version` migrates it.
    static func copyPath(of path: String, before version: String) -> String {
        path + ".before-" + version
    }

    /// `version` of `app` was marked bad: the database it migrated goes back to the copy set
    /// aside before (nothing happens when it migrated nothing). Answers what happened, for the log.
    static func restore(app: String, before version: String) -> String? {
        // The database is opened only when there is a copy to put back.
        guard let path = AppDatabase.path(forApp: app) else { return nil }
        let copy = copyPath(of: path, before: version)
        guard FileSystem.exists(copy) else { return nil }
        do throws(SQLError) {
            let database = try AppDatabase(path: path)
            try database.restore(from: copy)
            _ = unlink(copy)
            return "\(path): restored as it was before \(app) \(version) migrated it"
        } catch {
            return "\(path): cannot restore the copy set aside before \(app) \(version): \(error.message) (it stays at \(copy))"
        }
    }

    /// `version` of `app` started well: the copy set aside before it migrated is not needed.
    static func discardCopy(app: String, before version: String) {
        // Every good start comes here, database or not: no need to open one to remove a file.
        guard let path = AppDatabase.path(forApp: app) else { return }
        _ = unlink(copyPath(of: path, before: version))
    }

    /// Registers `db.watch` and `db.unwatch` over `database`: watches kept in `watches`, their
    /// results posted to the loop and handed to `deliver`.
    static func registerWatches(on database: AppDatabase, watches: DatabaseWatches, in services: ServiceRegistry,
                                post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
                                deliver: @escaping @Sendable (Int, Result<[JSONValue], SQLError>) -> Void) {
        services.register("db.watch", permission: "db", summary: "watches a query's rows (db.watch)") { (watch: Watch) -> JSONValue in
            watches.start(id: watch.id, sql: watch.sql, params: watch.params ?? .null, in: database, post: post, deliver: deliver)
            return .null
        }
        services.register("db.unwatch", permission: "db", summary: "stops a db.watch") { (watch: WatchID) -> JSONValue in
            watches.stop(id: watch.id)
            return .null
        }
    }

    /// Registers the `db.*` statement services over `database` (what a bundle with a database
    /// gets; a host or a benchmark may call it directly); `trace` is told a line per statement.
    public static func register(_ database: AppDatabase, trace: (@Sendable (String) -> Void)? = nil, in services: ServiceRegistry) {
        services.register("db.query", permission: "db", summary: "the rows of a statement, params bound") { (statement: Statement) throws -> [JSONValue] in
            try sql("query", statement.sql, trace: trace) { () throws(SQLError) in try database.query(statement.sql, params: statement.params ?? .null) }
        }
        services.register("db.exec", permission: "db", summary: "runs a statement, params bound: {changes, lastInsertRowId}") { (statement: Statement) throws -> JSONValue in
            try sql("exec", statement.sql, trace: trace) { () throws(SQLError) in try database.exec(statement.sql, params: statement.params ?? .null) }
        }
        // What db.transaction(fn) spans fn's tx calls with: it runs on the loop's thread, and fn
        // is synchronous, so no other script's statement comes in between.
        let steps: [(String, String, @Sendable () throws(SQLError) -> Void)] = [
            ("db.begin", "opens a transaction for db.transaction", database.begin),
            ("db.commit", "commits db.transaction's transaction", database.commit),
            ("db.rollback", "rolls back db.transaction's transaction", database.rollback),
        ]
        for (name, summary, step) in steps {
            services.register(name, permission: "db", summary: summary) { (_: JSONValue) throws -> JSONValue in
                try sql(String(name.dropFirst("db.".count)), "", trace: trace, step)
                return .null
            }
        }
        services.register("db.batch", permission: "db", summary: "one statement for each params, in one transaction: {changes}") { (batch: Batch) throws -> JSONValue in
            let paramsList = try paramsList(batch.paramsList)
            return try sql("batch", batch.sql, trace: trace) { () throws(SQLError) in try database.batch(batch.sql, paramsList: paramsList) }
        }
        registerHandlers(on: database, trace: trace, in: services)
    }

    /// Registers what `db.handler` stands on: `db.handle`/`db.unhandle` catch or stop catching a
    /// table's changes, and `db.capture` runs a statement with its changes caught, answering
    /// `{result, changes, leftOpen}` (db.js runs the handlers, then commits what was left open).
    private static func registerHandlers(on database: AppDatabase, trace: (@Sendable (String) -> Void)?, in services: ServiceRegistry) {
        services.register("db.handle", permission: "db", summary: "catches a table's row changes for db.handler") { (handled: Handled) throws -> JSONValue in
            let operation = try operation(handled.op)
            return try sql("handle", "", trace: trace) { () throws(SQLError) in
                do throws(SQLError) {
                    try database.catchChanges(of: handled.table, operation)
                } catch {
                    throw SQLError("db.handler(\(DiagnosticText.quoted(handled.table)), \(DiagnosticText.quoted(handled.op))): \(error.message)")
                }
                return .null
            }
        }
        services.register("db.unhandle", permission: "db", summary: "stops catching a table's row changes") { (handled: Handled) throws -> JSONValue in
            let operation = try operation(handled.op)
            return try sql("unhandle", "", trace: trace) { () throws(SQLError) in
                try database.stopCatchingChanges(of: handled.table, operation)
                return .null
            }
        }
        services.register("db.capture", permission: "db", summary: "a statement with the row changes db.handlers want") { (message: Captured) throws -> JSONValue in
            let statement: AppDatabase.Statement
            switch message.operation {
            case "query": statement = .query(message.sql, params: message.params ?? .null)
            case "exec": statement = .exec(message.sql, params: message.params ?? .null)
            case "batch": statement = .batch(message.sql, paramsList: try paramsList(message.paramsList ?? ""))
            default: throw ServiceError(.badParams, "db.capture: operation must be query, exec or batch")
            }
            let caught = try sql(message.operation, message.sql, trace: trace) { () throws(SQLError) in try database.capturingChanges(statement) }
            return .object(JSONObject([("result", caught.value), ("changes", .array(caught.changes.map(\.json))),
                                       ("leftOpen", .bool(caught.leftOpen))]))
        }
    }

    private static func paramsList(_ text: String) throws(ServiceError) -> [JSONValue] {
        guard case .array(let list)? = try? JSONParser.parse(Array(text.utf8)).plain else {
            throw ServiceError(.badParams, "db.batch: paramsList must be an array of params")
        }
        return list
    }

    private static func operation(_ name: String) throws(ServiceError) -> RowChange.Operation {
        guard let operation = RowChange.Operation(rawValue: name) else {
            throw ServiceError(.badParams, "db.handler: the operation is \"insert\", \"update\" or \"delete\", not \(DiagnosticText.quoted(name))")
        }
        return operation
    }

    /// What `body` answers, SQLite's refusal as the `E_SQL` scripts get; with `trace`, one line
    /// `db OPERATION SQL → OUTCOME N ms` (the outcome: the rows, `changes`, or the error).
    private static func sql<Value>(_ operation: String, _ statement: String, trace: (@Sendable (String) -> Void)?,
                                   _ body: () throws(SQLError) -> Value) throws(ServiceError) -> Value {
        let start = ContinuousClock.now
        let line = { (outcome: String) in
            let elapsed = (ContinuousClock.now - start).components
            let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
            let shown = statement.isEmpty ? "" : " " + DiagnosticText.cut(statement.split(whereSeparator: \.isNewline).joined(separator: " "))
            trace?("db \(operation)\(shown) → \(outcome) \(String(format: "%.1f", milliseconds)) ms")
        }
        do {
            let value = try body()
            if trace != nil {
                let outcome = { (value: Any) -> String in
                    switch value {
                    case let rows as [JSONValue]: "\(rows.count) row\(rows.count == 1 ? "" : "s")"
                    case let result as JSONValue: result.jsonText
                    default: "ok"
                    }
                }
                if let caught = value as? AppDatabase.Caught {
                    let result = if case .array(let rows) = caught.value { outcome(rows) } else { outcome(caught.value) }
                    line("\(result), \(caught.changes.count) row change\(caught.changes.count == 1 ? "" : "s") for handlers")
                } else {
                    line(outcome(value))
                }
            }
            return value
        } catch {
            if trace != nil { line("E_SQL \(error.message)") }
            throw ServiceError(.sql, error.message)
        }
    }
}
