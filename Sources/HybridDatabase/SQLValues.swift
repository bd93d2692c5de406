import Foundation
import GRDB
import HybridJSON

/// Values between SQLite and JSON (SPEC §7.3): INTEGER is a number, or a string beyond ±2^53
/// where a number would round; REAL a number; TEXT a string; NULL null; BLOB the object
/// `{"$bytes": [BYTE, …]}`, which the script side turns into a `Uint8Array` (and back).
public enum SQLValues {
    /// The largest integer a JavaScript number holds exactly.
    public static let exactIntegerLimit: Int64 = 1 << 53
    /// The member a BLOB travels in.
    public static let bytesKey = "$bytes"

    /// A column's value as JSON.
    static func json(_ value: DatabaseValue) -> JSONValue {
        switch value.storage {
        case .null: return .null
        case .int64(let integer):
            return abs(integer) <= exactIntegerLimit ? .integer(Int(integer)) : .string(String(integer))
        case .double(let number): return number.isFinite ? .number(number) : .null
        case .string(let text): return .string(text)
        case .blob(let data): return .object(JSONObject([(bytesKey, .array(data.map { .integer(Int($0)) }))]))
        }
    }

    /// A param as SQLite binds it; `place` names it in the error (`$[2]`, `$.name`), made only
    /// then: a batch binds tens of thousands of values.
    /// - Throws: `SQLError` for arrays and objects other than bytes: SQLite has no such type.
    static func databaseValue(_ value: JSONValue, place: @autoclosure () -> String) throws(SQLError) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return (flag ? 1 : 0).databaseValue
        case .integer(let integer): return Int64(integer).databaseValue
        case .number(let number): return number.databaseValue
        case .string(let text): return text.databaseValue
        case .object(let object):
            if object.keys.count == 1, case .array(let items)? = object[bytesKey] {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(items.count)
                for item in items {
                    guard case .integer(let byte) = item, let value = UInt8(exactly: byte) else {
                        throw SQLError("param \(place()): bytes are integers from 0 to 255")
                    }
                    bytes.append(value)
                }
                return Data(bytes).databaseValue
            }
            throw SQLError("param \(place()): an object cannot be bound (SQLite takes numbers, strings, null and Uint8Array)")
        case .array:
            throw SQLError("param \(place()): an array cannot be bound (SQLite takes numbers, strings, null and Uint8Array)")
        }
    }

    /// `params` as statement arguments: an array binds `?` in order, an object `:name`.
    static func arguments(_ params: JSONValue) throws(SQLError) -> StatementArguments {
        switch params {
        case .null:
            return StatementArguments()
        // Built from optional existentials: GRDB's initializers for those map with a closure,
        // where the ones for `[DatabaseValue]` go through a key path, 3x slower in a batch.
        case .array(let items):
            var values: [(any DatabaseValueConvertible)?] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { values.append(try databaseValue(item, place: "$[\(index)]")) }
            return StatementArguments(values)
        case .object(let object):
            var values: [String: (any DatabaseValueConvertible)?] = [:]
            for member in object { values[member.key] = try databaseValue(member.value, place: "$.\(member.key)") }
            return StatementArguments(values)
        default:
            throw SQLError("params must be an array (for ?) or an object (for :name), not \(params.jsonText)")
        }
    }

    /// A row as an object by column name (a repeated name keeps its first column).
    static func object(_ row: Row) -> JSONValue {
        var object = JSONObject()
        for (column, value) in row where object[column] == nil { object[column] = json(value) }
        return .object(object)
    }
}
