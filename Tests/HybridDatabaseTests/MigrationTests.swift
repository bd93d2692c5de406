import Foundation
@testable import HybridDatabase
import HybridJSON
import TestSupport
import XCTest

/// A bundle's migrations (SPEC §7.3): applied in name order, each in its own transaction and
/// recorded with its SHA-256; a failing one rolls back and names its line; an applied one whose
/// file changed is refused naming both hashes; bad names are told.
final class MigrationTests: XCTestCase {
    func folder(_ files: [String: String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory("migrations")
        for (name, text) in files { try text.write(to: folder.url.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    func testMigrationsApplyInOrderOnceAndAFailureRollsBackNamingItsLine() throws {
        let data = try TemporaryDirectory("migrations-db")
        let db = try AppDatabase(path: data.url.appendingPathComponent("app.sqlite").path)
        let migrations = try folder([
            "0001-create.sql": "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT);\n",
            "0002-tags.sql": "ALTER TABLE notes ADD COLUMN tag TEXT;\nINSERT INTO notes (title, tag) VALUES ('first', 'x');\n",
            "0003-broken.sql": "CREATE TABLE other (a);\n\nINSERT INTO nowhere VALUES (1);\n",
        ])
        let files = MigrationFiles(folder: migrations.path)
        XCTAssertEqual(files.problems, [])
        XCTAssertEqual(files.files.map(\.name), ["0001-create.sql", "0002-tags.sql", "0003-broken.sql"])
        XCTAssertThrowsError(try BundleMigrator.migrate(db, with: files.files)) { error in
            XCTAssertEqual("\(error)", "\(migrations.path)/0003-broken.sql:3: no such table: nowhere")
        }
        XCTAssertEqual(try db.query("SELECT name FROM sqlite_master WHERE name = 'other'"), [], "the failed migration rolled back whole")
        XCTAssertEqual(try db.query("SELECT title, tag FROM notes"), [.object(JSONObject([("title", .string("first")), ("tag", .string("x"))]))])
        XCTAssertEqual(try db.query("SELECT name FROM hybrid_migrations ORDER BY name").count, 2)

        XCTAssertEqual(try BundleMigrator.migrate(db, with: Array(files.files.prefix(2))), [], "nothing to apply twice")
    }

    func testAnAppliedMigrationThatChangedIsRefusedNamingBothHashes() throws {
        let data = try TemporaryDirectory("migrations-changed")
        let db = try AppDatabase(path: data.url.appendingPathComponent("app.sqlite").path)
        let migrations = try folder(["0001-create.sql": "CREATE TABLE notes (title TEXT);"])
        let before = MigrationFiles(folder: migrations.path).files
        try BundleMigrator.migrate(db, with: before)
        try "CREATE TABLE notes (title TEXT, body TEXT);".write(to: migrations.url.appendingPathComponent("0001-create.sql"), atomically: true, encoding: .utf8)
        let after = MigrationFiles(folder: migrations.path).files
        XCTAssertThrowsError(try BundleMigrator.migrate(db, with: after)) { error in
            XCTAssertEqual("\(error)", "\(migrations.path)/0001-create.sql: this migration was applied with sha256 \(before[0].sha256) and the file now has "
                           + "sha256 \(after[0].sha256); an applied migration cannot change: put the change in a new migration")
        }
    }

    func testBadNamesAndRepeatedNumbersAreTold() throws {
        let migrations = try folder(["0001-a.sql": "SELECT 1;", "0001-b.sql": "SELECT 2;", "2-c.sql": "SELECT 3;", "notes.txt": ""])
        let files = MigrationFiles(folder: migrations.path)
        XCTAssertEqual(files.files.map(\.name), ["0001-a.sql"])
        XCTAssertEqual(files.problems, [
            "\(migrations.path)/0001-b.sql: the number 0001 is 0001-a.sql's already; each migration has its own",
            "\(migrations.path)/2-c.sql: a migration is named NNNN-name.sql (four digits, a dash, a name), like 0001-create-notes.sql",
            "\(migrations.path)/notes.txt: a migration is named NNNN-name.sql (four digits, a dash, a name), like 0001-create-notes.sql",
        ])
    }
}
