import Foundation
@testable import HybridDatabase
import HybridJSON
import TestSupport
import XCTest

/// One app's database (SPEC §7.3): values round-trip with §7.3's mapping, params are always
/// bound, SQLite's refusals come back in its words, a batch is one transaction.
final class AppDatabaseTests: XCTestCase {
    func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)).plain }

    func database() throws -> AppDatabase {
        let folder = try TemporaryDirectory("app-database")
        addTeardownBlock { _ = folder }
        return try AppDatabase(path: folder.url.appendingPathComponent("data/app.sqlite").path)
    }

    func testEveryTypeRoundTripsAndBigIntegersAreNotRounded() throws {
        let db = try database()
        _ = try db.exec("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
        let inserted = try db.exec("INSERT INTO t VALUES (?, ?, ?, ?, ?)", params: try json(#"[42, 2.5, "tea ☕", {"$bytes": [0, 1, 2, 255]}, null]"#))
        XCTAssertEqual(inserted, try json(#"{"changes": 1, "lastInsertRowId": 1}"#))
        _ = try db.exec("INSERT INTO t (i) VALUES (9007199254740993)")
        _ = try db.exec("INSERT INTO t (i) VALUES (:i)", params: try json(#"{"i": -9007199254740992}"#))
        let rows = try db.query("SELECT * FROM t ORDER BY rowid")
        XCTAssertEqual(rows[0], try json(#"{"i": 42, "r": 2.5, "s": "tea ☕", "b": {"$bytes": [0, 1, 2, 255]}, "n": null}"#))
        XCTAssertEqual(rows[1]["i"], .string("9007199254740993"), "past 2^53 an integer comes as a string, never rounded")
        XCTAssertEqual(rows[2]["i"], .integer(-9007199254740992))
    }

    func testAQuoteLadenParamStaysLiteral() throws {
        let db = try database()
        _ = try db.exec("CREATE TABLE notes (title TEXT)")
        let title = "'); DROP TABLE notes; --"
        _ = try db.exec("INSERT INTO notes VALUES (?)", params: .array([.string(title)]))
        XCTAssertEqual(try db.query("SELECT title FROM notes"), [.object(JSONObject([("title", .string(title))]))])
    }

    func testSQLiteRefusalsComeInItsWordsAndABatchIsOneTransaction() throws {
        let db = try database()
        XCTAssertThrowsError(try db.query("SELEC 1")) { error in
            XCTAssertEqual((error as? SQLError)?.message, #"near "SELEC": syntax error"#)
        }
        _ = try db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        XCTAssertEqual(try db.batch("INSERT INTO items (name) VALUES (?)", paramsList: [.array([.string("a")]), .array([.string("b")])]),
                       try json(#"{"changes": 2}"#))
        XCTAssertThrowsError(try db.batch("INSERT INTO items (name) VALUES (?)", paramsList: [.array([.string("c")]), .array([.null])])) { error in
            XCTAssertEqual((error as? SQLError)?.message, "params 1: NOT NULL constraint failed: items.name")
        }
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM items"), [try json(#"{"n": 2}"#)], "the failed batch left nothing")
        XCTAssertThrowsError(try db.exec("INSERT INTO items (name) VALUES (?)", params: try json(#"[[1]]"#))) { error in
            XCTAssertEqual((error as? SQLError)?.message, "param $[0]: an array cannot be bound (SQLite takes numbers, strings, null and Uint8Array)")
        }
    }

    /// Rows after the first are bound in place while they have its length; every kind of value
    /// still maps as §7.3 says, and a row of another shape is checked again and refused whole.
    func testABatchBindsEveryRowWhateverItsShape() throws {
        let db = try database()
        _ = try db.exec("CREATE TABLE t (a, b)")
        let rows = try json(#"[[1, "one"], [9007199254740993, {"$bytes": [0, 9]}], [2.5, null], [true, false], {"a": 3, "b": "named"}, [4, "after"]]"#).arrayValue ?? []
        XCTAssertEqual(try db.batch("INSERT INTO t VALUES (:a, :b)", paramsList: rows), try json(#"{"changes": 6}"#))
        XCTAssertEqual(try db.query("SELECT a, b FROM t ORDER BY rowid"), try json(#"""
            [{"a": 1, "b": "one"}, {"a": "9007199254740993", "b": {"$bytes": [0, 9]}}, {"a": 2.5, "b": null},
             {"a": 1, "b": 0}, {"a": 3, "b": "named"}, {"a": 4, "b": "after"}]
            """#).arrayValue)
        for (bad, message) in [(#"[[5, "x"], [6]]"#, "params 1: wrong number of statement arguments"), (#"[[5, "x"], [6, [1]]]"#, "params 1: param $[1]: an array cannot be bound")] {
            XCTAssertThrowsError(try db.batch("INSERT INTO t VALUES (?, ?)", paramsList: try json(bad).arrayValue ?? [])) { error in
                XCTAssertTrue((error as? SQLError)?.message.hasPrefix(message) ?? false, "\(error)")
            }
        }
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM t"), [try json(#"{"n": 6}"#)], "a refused batch leaves nothing")
    }

    func testACopyRestoresTheDatabaseAsItWas() throws {
        let db = try database()
        _ = try db.exec("CREATE TABLE items (name TEXT)")
        _ = try db.exec("INSERT INTO items VALUES ('kept')")
        let copy = db.path + ".before-2.0.0"
        try db.copy(to: copy)
        _ = try db.exec("DELETE FROM items")
        _ = try db.exec("ALTER TABLE items ADD COLUMN tag TEXT")
        try db.restore(from: copy)
        XCTAssertEqual(try db.query("SELECT * FROM items"), [try json(#"{"name": "kept"}"#)])
    }

    /// A restore while another connection writes waits `lockWait`, then says why it could not:
    /// SQLite's message for a failed backup step had been "not an error".
    func testARestoreOverALockedDatabaseSaysItIsLocked() throws {
        let db = try database()
        _ = try db.exec("CREATE TABLE items (name TEXT)")
        let copy = db.path + ".before-2.0.0"
        try db.copy(to: copy)
        let other = try AppDatabase(path: db.path)
        try other.begin()
        _ = try other.exec("INSERT INTO items VALUES ('pending')")
        XCTAssertThrowsError(try db.restore(from: copy)) { error in
            XCTAssertEqual((error as? SQLError)?.message, "database is locked")
            XCTAssertEqual((error as? SQLError)?.isLocked, true)
        }
        try other.rollback()
        XCTAssertNoThrow(try db.restore(from: copy))
    }

    func testATransactionSpansStatementsUntilItIsCommittedOrRolledBack() throws {
        let db = try database()
        _ = try db.exec("CREATE TABLE items (name TEXT)")
        try db.begin()
        _ = try db.exec("INSERT INTO items VALUES ('gone')")
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM items"), [try json(#"{"n": 1}"#)], "inside, the row is there")
        try db.rollback()
        try db.begin()
        _ = try db.exec("INSERT INTO items VALUES ('kept')")
        try db.commit()
        XCTAssertEqual(try db.query("SELECT name FROM items"), [try json(#"{"name": "kept"}"#)])
        try db.rollback()
    }
}
