import Foundation
import GRDB
import HybridJSON

/// One row a statement inserted, updated or deleted (what a script's `db.handler` is given):
/// `row` as it is after (nil for a delete), `previous` as it was before (nil for an insert).
public struct RowChange: Sendable, Equatable {
    /// What happened to the row.
    public enum Operation: String, Sendable, CaseIterable {
        case insert, update, delete
    }

    public var table: String
    public var operation: Operation
    public var row: JSONValue?
    public var previous: JSONValue?

    /// `{table, op, row, previous}`, SPEC §7.3's `change`.
    public var json: JSONValue {
        .object(JSONObject([("table", .string(table)), ("op", .string(operation.rawValue)),
                            ("row", row ?? .null), ("previous", previous ?? .null)]))
    }
}

/// The row changes of the tables some code asked about, caught as each statement makes them.
///
/// SQLite tells an update hook only a rowid, after the old values are gone, and forbids SQL in
/// it; GRDB's pre-update events need a custom SQLite build. So each `(table, operation)` asked
/// about gets a TEMP trigger on this connection whose body hands `NEW` and `OLD`, column by
/// column, to the SQL function `hybrid_capture`: the values keep their SQLite types (a BLOB
/// stays bytes, a large INTEGER exact), and TEMP objects vanish with the connection.
///
/// Only statements run through `AppDatabase.capturingChanges` are caught: the host's own
/// writes pass the triggers without being kept. State is touched only inside the database
/// queue's accesses, which GRDB serializes.
final class ChangeCapture: @unchecked Sendable {
    private static let functionName = "hybrid_capture"

    /// Per trigger: the columns of its table when it was made, which its calls hand over.
    private var columns: [String: [String]] = [:]
    private var functionAdded = false
    private var armed = false
    private var caught: [RowChange] = []

    /// Makes the trigger that catches `operation` on `table` (again, with the table's columns as
    /// they are now, when it was there).
    /// - Throws: `SQLError` when `table` is not a table of the database.
    func start(table: String, operation: RowChange.Operation, in db: Database) throws {
        if !functionAdded {
            db.add(function: DatabaseFunction(Self.functionName) { [unowned self] values in
                record(values)
                return nil
            })
            functionAdded = true
        }
        let kind = try String.fetchOne(db, sql: "SELECT type FROM main.sqlite_master WHERE name = ?", arguments: [table])
        guard kind == "table" else {
            throw SQLError(kind == nil ? "no such table: \(table)" : "\(table) is a \(kind!), not a table: only a table's rows have handlers")
        }
        let names = try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?, 'main')", arguments: [table]).map { $0["name"] as String }
        let trigger = Self.triggerName(table: table, operation: operation)
        columns[trigger] = names
        let values: [String] = switch operation {
        case .insert: names.map { "NEW.\(sqlIdentifier($0))" }
        case .update: names.map { "NEW.\(sqlIdentifier($0))" } + names.map { "OLD.\(sqlIdentifier($0))" }
        case .delete: names.map { "OLD.\(sqlIdentifier($0))" }
        }
        let arguments = ([sqlText(table), sqlText(operation.rawValue)] + values).joined(separator: ", ")
        try db.execute(sql: "DROP TRIGGER IF EXISTS temp.\(sqlIdentifier(trigger))")
        try db.execute(sql: """
            CREATE TEMP TRIGGER \(sqlIdentifier(trigger)) AFTER \(operation.rawValue.uppercased()) ON main.\(sqlIdentifier(table))
            BEGIN SELECT \(Self.functionName)(\(arguments)); END
            """)
    }

    /// Drops the trigger that catches `operation` on `table`.
    func stop(table: String, operation: RowChange.Operation, in db: Database) throws {
        let trigger = Self.triggerName(table: table, operation: operation)
        guard columns.removeValue(forKey: trigger) != nil else { return }
        try db.execute(sql: "DROP TRIGGER IF EXISTS temp.\(sqlIdentifier(trigger))")
    }

    /// What `body` changed in the tables caught, in the order the rows changed.
    func catching<Value>(_ body: () throws -> Value) rethrows -> (Value, [RowChange]) {
        armed = true
        caught = []
        defer { armed = false; caught = [] }
        let value = try body()
        return (value, caught)
    }

    /// A trigger's call: `table, operation, values…` (new then old for an update).
    private func record(_ values: [DatabaseValue]) {
        guard armed, values.count >= 2, let table = String.fromDatabaseValue(values[0]),
              let operation = String.fromDatabaseValue(values[1]).flatMap(RowChange.Operation.init),
              let names = columns[Self.triggerName(table: table, operation: operation)] else { return }
        let row = { (offset: Int) -> JSONValue? in
            guard values.count >= offset + names.count else { return nil }
            var object = JSONObject()
            for (index, name) in names.enumerated() { object[name] = SQLValues.json(values[offset + index]) }
            return .object(object)
        }
        switch operation {
        case .insert: caught.append(RowChange(table: table, operation: operation, row: row(2), previous: nil))
        case .update: caught.append(RowChange(table: table, operation: operation, row: row(2), previous: row(2 + names.count)))
        case .delete: caught.append(RowChange(table: table, operation: operation, row: nil, previous: row(2)))
        }
    }

    private static func triggerName(table: String, operation: RowChange.Operation) -> String {
        "hybrid_handler_\(operation.rawValue)_\(table)"
    }
}

/// `name` as an SQL identifier, whatever it holds.
private func sqlIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// `text` as an SQL string literal.
private func sqlText(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}
