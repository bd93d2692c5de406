import Foundation
import HybridDatabase
import HybridJSON
import TestSupport
import XCTest

/// Boot safety and the app's data (SPEC §5, §7.3) through the real binary: signed versions of
/// one app, each with a database, installed and started in turn from one data folder.
final class DatabaseBootTests: XCTestCase {
    /// One user's machine: a key pair, and the data and cache folders every run shares.
    private struct Machine {
        let home: TemporaryDirectory
        var keys: String { home.url.appendingPathComponent("keys").path }
        var environment: [String: String] {
            ["XDG_DATA_HOME": home.url.appendingPathComponent("data").path, "XDG_CACHE_HOME": home.url.appendingPathComponent("cache").path]
        }
        var databasePath: String { home.url.appendingPathComponent("data/hybridterm/notes/app.sqlite").path }

        init() throws {
            home = try TemporaryDirectory("hybrid-db-boot")
            XCTAssertEqual(try CommandRunner.hybrid(["bundle", "keygen", "notes", "--out-dir", keys]).status, 0)
        }

        /// The folder of `version` of the app `notes`, with `migrations` and `script`.
        func folder(_ version: String, migrations: [String: String], script: String) throws -> TemporaryDirectory {
            var files = [
                "manifest.json": #"{"app": "notes", "version": "\#(version)", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "database": {"migrations": "migrations"}, "permissions": ["db"], "store": {"line": ""}}"#,
                "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "@{store.line}"}}"#,
                "main.js": script,
            ]
            for (name, sql) in migrations { files["migrations/" + name] = sql }
            return try ValidateScriptsTests.bundle(named: "hybrid-db-boot-\(version)", files)
        }

        /// The same, signed and packed: the archive's path.
        func release(_ version: String, migrations: [String: String], script: String) throws -> String {
            let folder = try folder(version, migrations: migrations, script: script)
            let archive = home.url.appendingPathComponent("notes-\(version)-\(UUID().uuidString).hbundle").path
            let pack = try CommandRunner.hybrid(["bundle", "pack", folder.path, "--key", keys + "/notes.key", "--out", archive])
            XCTAssertEqual(pack.status, 0, pack.standardError)
            return archive
        }

        /// `hybrid run TARGET --headless` (with the public key for an archive).
        func run(_ target: String) throws -> CommandRunner.Result {
            let key = target.hasSuffix(".hbundle") ? ["--pubkey", keys + "/notes.pub"] : []
            return try CommandRunner.hybrid(["run", target] + key + ["--headless"], environment: environment)
        }
    }

    private static let one = ["0001-create.sql": "CREATE TABLE notes (title TEXT);"]
    private static let listing = "store.set('line', db.query('SELECT * FROM notes').map((n) => Object.keys(n).join('+') + ':' + n.title).join(','));"

    /// Version 2 migrates, then fails its start; it is marked bad, the database goes back to
    /// what it was before it migrated, and version 1 runs on with its rows.
    func testAVersionThatMigratesThenFailsLeavesTheDataAsItWas() throws {
        let machine = try Machine()
        let first = try machine.run(try machine.release("1.0.0", migrations: Self.one, script: "db.exec(\"INSERT INTO notes VALUES ('from 1')\");" + Self.listing + "hybrid.ready();"))
        XCTAssertEqual(first.standardOutput.split(separator: "\n").first.map(String.init), "title:from 1", first.standardError)

        let two = Self.one.merging(["0002-tags.sql": "ALTER TABLE notes ADD COLUMN tag TEXT;\nDELETE FROM notes;"]) { $1 }
        let second = try machine.run(try machine.release("2.0.0", migrations: two, script: "throw new Error('2.0.0 is broken');"))
        XCTAssertTrue(second.standardError.contains("notes 2.0.0 is marked bad"), second.standardError)
        XCTAssertTrue(second.standardError.contains("restored as it was before notes 2.0.0 migrated it"), second.standardError)
        XCTAssertEqual(second.standardOutput.split(separator: "\n").first.map(String.init), "title:from 1,title:from 1",
                       "1.0.0 runs on its own schema with its rows: \(second.standardError)")
    }

    /// A folder's run is never judged, so it sets no copy aside: one it left used to be
    /// restored, over every row written since, when an installed version of the same number
    /// failed to start without migrating anything.
    func testAFolderRunLeavesNoCopyForAFailingVersionToRestore() throws {
        let machine = try Machine()
        let folder = try machine.folder("1.0.0", migrations: Self.one, script: "db.exec(\"INSERT INTO notes VALUES ('precious')\"); hybrid.ready();")
        XCTAssertEqual(try machine.run(folder.path).status, 0)
        let broken = try machine.run(try machine.release("1.0.0", migrations: Self.one, script: "throw new Error('1.0.0 is broken');"))
        XCTAssertTrue(broken.standardError.contains("notes 1.0.0 is marked bad"), broken.standardError)
        XCTAssertFalse(broken.standardError.contains("restored"), broken.standardError)
        XCTAssertEqual(try AppDatabase(path: machine.databasePath).query("SELECT title FROM notes"), [.object(JSONObject([("title", .string("precious"))]))])
    }

    /// A file that is no database where the app's database should be: the start fails naming
    /// the file (SQLite's reason does not), and the file is left as it was.
    func testADamagedDatabaseFileIsNamedAndLeftAlone() throws {
        let machine = try Machine()
        try FileManager.default.createDirectory(atPath: (machine.databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "not a database".write(toFile: machine.databasePath, atomically: true, encoding: .utf8)
        let folder = try machine.folder("1.0.0", migrations: Self.one, script: "hybrid.ready();")
        let result = try machine.run(folder.path)
        XCTAssertEqual(result.status, 1, result.standardError)
        XCTAssertTrue(result.standardError.contains("notes: cannot open its database \(machine.databasePath): file is not a database"), result.standardError)
        XCTAssertEqual(try String(contentsOfFile: machine.databasePath, encoding: .utf8), "not a database")
    }

    /// Another process holding the database locked for longer than the wait is not the
    /// version's failure: the start ends saying so, with no verdict, and the next start (the
    /// lock gone) runs the version and keeps the rows.
    func testADatabaseLockedByAnotherProcessFailsTheStartWithoutAVerdict() throws {
        let machine = try Machine()
        let insert = "db.exec(\"INSERT INTO notes VALUES ('kept')\");" + Self.listing + "hybrid.ready();"
        XCTAssertEqual(try machine.run(try machine.release("1.0.0", migrations: Self.one, script: insert)).status, 0)
        let two = try machine.release("2.0.0", migrations: Self.one.merging(["0002-tags.sql": "ALTER TABLE notes ADD COLUMN tag TEXT;"]) { $1 },
                                      script: Self.listing + "hybrid.ready();")
        let holder = try AppDatabase(path: machine.databasePath)
        try holder.begin()
        let locked = try machine.run(two)
        try holder.rollback()
        XCTAssertEqual(locked.status, 1, locked.standardError)
        XCTAssertTrue(locked.standardError.contains("database is locked"), locked.standardError)
        XCTAssertTrue(locked.standardError.contains("another process holds the database locked"), locked.standardError)
        XCTAssertFalse(locked.standardError.contains("marked bad"), locked.standardError)

        let after = try machine.run(two)
        XCTAssertEqual(after.status, 0, after.standardError)
        XCTAssertEqual(after.standardOutput.split(separator: "\n").first.map(String.init), "title+tag:kept", after.standardError)
        let list = try CommandRunner.hybrid(["cache", "list"], environment: machine.environment)
        XCTAssertTrue(list.standardOutput.contains("notes 2.0.0 healthy"), list.standardOutput)
    }
}
