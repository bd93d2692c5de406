import Foundation
import HybridDatabase
import HybridJSON
import TestSupport
import XCTest

/// The `db` global (SPEC §7.3) through the real binary: a bundle's migrations run before its
/// scripts, which query, write, batch and use tables with params always bound; SQLite's
/// refusals reach the script as `E_SQL` at the calling line; a failing migration fails the
/// start, located; without the `db` permission, `E_DENIED`.
final class DatabaseScriptTests: XCTestCase {
    static func run(_ script: String, migrations: [String: String] = [:], permissions: String = #"["db"]"#,
             data: TemporaryDirectory? = nil, size: String = "160x2") throws -> (status: Int32, frame: String, errors: String) {
        var files = [
            "manifest.json": #"{"app": "notes", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "database": {"migrations": "migrations"}, "permissions": \#(permissions), "store": {"line": ""}}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "@{store.line}"}}"#,
            "main.js": script,
        ]
        for (name, sql) in migrations { files["migrations/" + name] = sql }
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-db", files)
        let home = try data ?? TemporaryDirectory("hybrid-db-data")
        let result = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", size], environment: ["XDG_DATA_HOME": home.path])
        return (result.status, result.standardOutput.split(separator: "\n").first.map(String.init) ?? "", result.standardError)
    }

    static let schema = ["0001-create.sql": "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body BLOB);\n"]

    func testScriptsQueryWriteBatchAndUseTables() throws {
        let (status, frame, errors) = try Self.run("""
        const added = db.exec('INSERT INTO notes (title) VALUES (?)', ["it's \\"quoted\\"); DROP TABLE notes; --"]);
        db.batch('INSERT INTO notes (title) VALUES (:t)', [{ t: 'two' }, { t: 'three' }]);
        const notes = db.table('notes');
        notes.insert({ title: 'bytes', body: new Uint8Array([0, 255]) });
        notes.update(2, { title: 'TWO' });
        notes.remove(3);
        notes.upsert({ id: 1, title: 'first' });
        const bytes = notes.get(4).body;
        const titles = notes.find({ orderBy: 'id', limit: 3 }).map((n) => n.title);
        store.set('line', `${added.lastInsertRowId} ${titles.join(',')} ${bytes instanceof Uint8Array} ${Array.from(bytes)}`);
        hybrid.ready();
        """, migrations: Self.schema)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(frame.trimmingCharacters(in: .whitespaces), "1 first,TWO,bytes true 0,255", errors)
    }

    func testATransactionCommitsOrRollsBackWhole() throws {
        let (status, frame, errors) = try Self.run("""
        db.transaction((tx) => { tx.exec("INSERT INTO notes (title) VALUES ('kept')"); db.batch('INSERT INTO notes (title) VALUES (?)', [['also']]); });
        let thrown = '';
        try {
          db.transaction((tx) => { tx.exec("INSERT INTO notes (title) VALUES ('gone')"); throw new Error('changed my mind'); });
        } catch (error) { thrown = error.message; }
        try { db.transaction(async () => {}); } catch (error) { thrown += " / " + error.message.split(';')[0]; }
        store.set('line', `${db.query('SELECT title FROM notes ORDER BY id').map((n) => n.title)} ${thrown}`);
        hybrid.ready();
        """, migrations: Self.schema)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(frame.trimmingCharacters(in: .whitespaces), "kept,also changed my mind / db.transaction(fn): fn returned a promise", errors)
    }

    /// A watcher hears the first rows, then once per committed transaction that changed what it
    /// reads: a 1,000-row batch is one call, a rolled-back transaction none, a write elsewhere none.
    func testAWatchHearsEachCommittedChangeOnce() throws {
        let (status, frame, errors) = try Self.run("""
        const seen = [];
        const watch = db.watch('SELECT count(*) AS n FROM notes WHERE title LIKE ?', ['t%'], (rows) => {
          seen.push(rows[0].n);
          store.set('line', seen.join(','));
        });
        db.exec("INSERT INTO notes (title) VALUES ('tea')");
        db.batch('INSERT INTO notes (title) VALUES (?)', Array.from({ length: 1000 }, (_, i) => [`t${i}`]));
        try { db.transaction((tx) => { tx.exec("INSERT INTO notes (title) VALUES ('toast')"); throw new Error('no'); }); } catch (e) {}
        db.exec('CREATE TABLE other (a)');
        db.exec('INSERT INTO other VALUES (1)');
        db.exec("INSERT INTO notes (title) VALUES ('coffee')");
        setTimeout(() => { watch.remove(); db.exec("INSERT INTO notes (title) VALUES ('tisane')"); hybrid.ready(); }, 10);
        """, migrations: Self.schema)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(frame.trimmingCharacters(in: .whitespaces), "0,1,1001", errors)
    }

    func testTraceDbPrintsALinePerStatement() throws {
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-db-trace", [
            "manifest.json": #"{"app": "notes", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "database": {"migrations": "migrations"}, "permissions": ["db"]}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "x"}}"#,
            "migrations/0001-create.sql": Self.schema["0001-create.sql"]!,
            "main.js": "db.exec(\"INSERT INTO notes (title) VALUES ('tea')\"); db.query('SELECT title FROM notes'); try { db.query('SELECT missing FROM notes'); } catch (e) {} hybrid.ready();",
        ])
        let data = try TemporaryDirectory("hybrid-db-trace-data")
        let result = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--trace", "db"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.standardError)
        let lines = result.standardError.split(separator: "\n").filter { $0.hasPrefix("db ") }.map { $0.replacingOccurrences(of: #" [0-9.]+ ms$"#, with: " N ms", options: .regularExpression) }
        XCTAssertEqual(lines, [
            #"db exec INSERT INTO notes (title) VALUES ('tea') → {"changes":1,"lastInsertRowId":1} N ms"#,
            #"db query SELECT title FROM notes → 1 row N ms"#,
            #"db query SELECT missing FROM notes → E_SQL no such column: missing N ms"#,
        ], result.standardError)
    }

    func testSQLErrorsReachTheScriptAtTheCallingLine() throws {
        let (status, frame, errors) = try Self.run("""
        let code = 'none';
        try {
          db.query('SELECT missing FROM notes');
        } catch (error) { code = `${error.code} ${error.message}`; }
        store.set('line', code);
        hybrid.ready();
        """, migrations: Self.schema)
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(frame.hasPrefix("E_SQL no such column: missing (called at "), frame)
        XCTAssertTrue(frame.hasSuffix("main.js:3:11)"), frame)
    }

    func testAFailingMigrationFailsTheStartNamingItsLine() throws {
        let (status, _, errors) = try Self.run("hybrid.ready();", migrations: Self.schema.merging(["0002-broken.sql": "ALTER TABLE notes ADD COLUMN tag TEXT;\nUPDATE nowhere SET a = 1;\n"]) { $1 })
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("migrations/0002-broken.sql:2: no such table: nowhere"), errors)
    }

    func testWithoutThePermissionTheDatabaseIsDenied() throws {
        let (status, frame, errors) = try Self.run("""
        try { db.query('SELECT 1'); store.set('line', 'read'); } catch (error) { store.set('line', error.code); }
        hybrid.ready();
        """, migrations: Self.schema, permissions: "[]")
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(frame.trimmingCharacters(in: .whitespaces), "E_DENIED", errors)
    }

    func testValidateNamesMisnamedMigrations() throws {
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-db-validate", [
            "manifest.json": #"{"app": "notes", "version": "1.0.0", "start": "home", "screens": {"home": "home.json"}, "database": {"migrations": "migrations"}, "permissions": ["db"]}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "x"}}"#,
            "migrations/0001-create.sql": "CREATE TABLE a (b);",
            "migrations/1-more.sql": "CREATE TABLE c (d);",
        ])
        let result = try CommandRunner.hybrid(["validate", bundle.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError.trimmingCharacters(in: .newlines),
                       "\(bundle.path)/migrations/1-more.sql: a migration is named NNNN-name.sql (four digits, a dash, a name), like 0001-create-notes.sql")
    }

    /// A screen bound to a query (an `sql` data block) shows the rows, a row a script inserts
    /// in the next frame, and follows its bound param; no refresh code anywhere.
    func testAScreenBoundToAQueryFollowsTheDatabase() throws {
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-db-screen", [
            "manifest.json": #"{"app": "notes", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "database": {"migrations": "migrations"}, "permissions": ["db"]}"#,
            "migrations/0001-create.sql": "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT);\nINSERT INTO notes (title) VALUES ('sencha'), ('assam');\n",
            "home.json": """
            {"format": 1, "id": "home", "state": {"query": ""},
             "data": {"notes": {"sql": "SELECT title FROM notes WHERE title LIKE :q ORDER BY id", "params": {"q": "%@{query}%"}}},
             "keys": {"ctrl+n": "add"},
             "body": {"type": "column", "children": [
               {"type": "input", "value": "@{query}", "autofocus": true},
               {"type": "list", "visible": "@{notes.page > 0}", "items": "@{notes.data}", "template": {"type": "text", "text": "@{item.title}"}}]}}
            """,
            "main.js": "ui.handler('add', () => db.exec(\"INSERT INTO notes (title) VALUES ('sen-cha latte')\")); hybrid.ready();",
        ])
        let data = try TemporaryDirectory("hybrid-db-screen-data")
        func frame(_ keys: String) throws -> [String] {
            let result = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "30x4", "--keys", keys], environment: ["XDG_DATA_HOME": data.path])
            XCTAssertEqual(result.status, 0, result.standardError)
            return result.standardOutput.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        XCTAssertEqual(try frame(""), ["sencha", "assam"])
        XCTAssertEqual(try frame("ctrl+n"), ["sencha", "assam", "sen-cha latte"])
        XCTAssertEqual(try frame("s e n"), ["sencha", "sen-cha latte"])
    }

    /// `kill -9` while a 100,000-row batch is being written leaves an intact database holding
    /// all of the rows or none (SQLite's journal; the batch is one transaction).
    func testAKillMidTransactionLeavesAllOrNoneOfTheRows() throws {
        for attempt in 0..<3 {
            let data = try TemporaryDirectory("hybrid-db-kill")
            let bundle = try ValidateScriptsTests.bundle(named: "hybrid-db-kill", [
                "manifest.json": #"{"app": "notes", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "database": {"migrations": "migrations"}, "permissions": ["db"]}"#,
                "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "x"}}"#,
                "migrations/0001-create.sql": "CREATE TABLE rows (n INTEGER, s TEXT);",
                "main.js": "hybrid.ready();",
            ])
            // A first run migrates; the second writes the rows, and is killed.
            XCTAssertEqual(try CommandRunner.hybrid(["run", bundle.path, "--headless"], environment: ["XDG_DATA_HOME": data.path]).status, 0)
            try "db.batch('INSERT INTO rows VALUES (?, ?)', Array.from({ length: 100000 }, (_, i) => [i, `row ${i}`])); hybrid.ready();"
                .write(to: bundle.url.appendingPathComponent("main.js"), atomically: true, encoding: .utf8)
            let process = try CommandRunner.start("hybrid", ["run", bundle.path, "--headless"], in: bundle.url, environment: ["XDG_DATA_HOME": data.path],
                                                  output: data.url.appendingPathComponent("out"), errors: data.url.appendingPathComponent("err"))
            // Killed once the transaction is under way (its journal is there), later each attempt.
            let journal = data.url.appendingPathComponent("hybridterm/notes/app.sqlite-journal").path
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning, !FileManager.default.fileExists(atPath: journal), Date() < deadline { usleep(500) }
            usleep(UInt32(attempt) * 20_000)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let db = try AppDatabase(path: data.url.appendingPathComponent("hybridterm/notes/app.sqlite").path)
            XCTAssertEqual(try db.query("PRAGMA integrity_check"), [.object(JSONObject([("integrity_check", .string("ok"))]))])
            let count = try db.query("SELECT count(*) AS c FROM rows").first?["c"]
            XCTAssertTrue(count == .integer(0) || count == .integer(100_000), "all or none, not \(String(describing: count))")
        }
    }
}
