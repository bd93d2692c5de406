import Foundation
@testable import HybridDatabase
import HybridJSON
import TestSupport
import XCTest

/// What `db.handler` stands on: the rows a statement inserts, updates or deletes in a table
/// caught with their values (types kept), inside the writing transaction; the host's own writes
/// and tables nobody asked about are not caught.
final class ChangeCaptureTests: XCTestCase {
    func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)).plain }

    func database() throws -> AppDatabase {
        let folder = try TemporaryDirectory("change-capture")
        addTeardownBlock { _ = folder }
        let db = try AppDatabase(path: folder.url.appendingPathComponent("app.sqlite").path)
        _ = try db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, body BLOB, big INTEGER)")
        _ = try db.exec("CREATE TABLE other (a)")
        return db
    }

    func testInsertsUpdatesAndDeletesAreCaughtWithTheirValues() throws {
        let db = try database()
        for operation in RowChange.Operation.allCases { try db.catchChanges(of: "notes", operation) }
        let inserted = try db.capturingChanges(.exec("INSERT INTO notes (title, body, big) VALUES (?, ?, 9007199254740993)", params: try json(#"["tea", {"$bytes": [0, 255]}]"#)))
        XCTAssertTrue(inserted.leftOpen, "outside a transaction, changes leave the one opened for them open")
        XCTAssertEqual(inserted.changes.map(\.json), [try json(#"{"table": "notes", "op": "insert", "row": {"id": 1, "title": "tea", "body": {"$bytes": [0, 255]}, "big": "9007199254740993"}, "previous": null}"#)])
        try db.commit()

        let updated = try db.capturingChanges(.exec("UPDATE notes SET title = 'TEA'", params: .null))
        XCTAssertEqual(updated.changes.first?.row?["title"], .string("TEA"))
        XCTAssertEqual(updated.changes.first?.previous?["title"], .string("tea"))
        try db.commit()

        let deleted = try db.capturingChanges(.exec("DELETE FROM notes", params: .null))
        XCTAssertEqual(deleted.changes.map(\.operation), [.delete])
        XCTAssertNil(deleted.changes.first?.row)
        XCTAssertEqual(deleted.changes.first?.previous?["title"], .string("TEA"))
        try db.rollback()
        XCTAssertEqual(try db.query("SELECT title FROM notes"), [try json(#"{"title": "TEA"}"#)], "the delete was rolled back with its transaction")
    }

    func testOnlyWhatIsAskedForIsCaughtAndNothingOpensWithoutIt() throws {
        let db = try database()
        try db.catchChanges(of: "notes", .insert)
        let elsewhere = try db.capturingChanges(.exec("INSERT INTO other VALUES (1)", params: .null))
        XCTAssertEqual(elsewhere.changes, [])
        XCTAssertFalse(elsewhere.leftOpen, "nothing caught: committed at once")
        let updated = try db.capturingChanges(.exec("UPDATE notes SET title = 'x'", params: .null))
        XCTAssertEqual(updated.changes, [], "updates were not asked for")

        _ = try db.exec("INSERT INTO notes (title) VALUES ('from the host')")
        let batch = try db.capturingChanges(.batch("INSERT INTO notes (title) VALUES (?)", paramsList: [try json(#"["a"]"#), try json(#"["b"]"#)]))
        XCTAssertEqual(batch.changes.compactMap { $0.row?["title"] }, [.string("a"), .string("b")], "the host's own write was not caught, and is not handed to the next statement")
        try db.rollback()

        try db.stopCatchingChanges(of: "notes", .insert)
        XCTAssertEqual(try db.capturingChanges(.exec("INSERT INTO notes (title) VALUES ('c')", params: .null)).changes, [])
    }

    func testInsideAnOpenTransactionNothingIsCommittedForTheCaller() throws {
        let db = try database()
        try db.catchChanges(of: "notes", .insert)
        try db.begin()
        let caught = try db.capturingChanges(.exec("INSERT INTO notes (title) VALUES ('a')", params: .null))
        XCTAssertFalse(caught.leftOpen, "the caller's transaction was open already")
        XCTAssertEqual(caught.changes.count, 1)
        try db.rollback()
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM notes"), [try json(#"{"n": 0}"#)])
    }

    func testAFailingStatementLeavesNothingOpen() throws {
        let db = try database()
        try db.catchChanges(of: "notes", .insert)
        XCTAssertThrowsError(try db.capturingChanges(.batch("INSERT INTO notes (id) VALUES (?)", paramsList: [try json("[1]"), try json("[1]")])))
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM notes"), [try json(#"{"n": 0}"#)])
        _ = try db.exec("INSERT INTO notes (title) VALUES ('no transaction was left open')")
    }

    func testOnlyTablesHaveHandlers() throws {
        let db = try database()
        _ = try db.exec("CREATE VIEW titles AS SELECT title FROM notes")
        XCTAssertThrowsError(try db.catchChanges(of: "missing", .insert)) { XCTAssertEqual(($0 as? SQLError)?.message, "no such table: missing") }
        XCTAssertThrowsError(try db.catchChanges(of: "titles", .insert)) { XCTAssertEqual(($0 as? SQLError)?.message, "titles is a view, not a table: only a table's rows have handlers") }
    }
}
