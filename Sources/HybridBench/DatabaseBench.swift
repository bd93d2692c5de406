import Foundation
import GRDB
import HybridTerm

/// The database's figures (BENCHMARKS.md), each against a reference measured in the same run:
/// `db.batch` of 10,000 rows from a script against Python's `sqlite3` `executemany` of the same
/// rows into the same schema (`scripts/bench-sqlite.py`), a one-row `db.query` from a script
/// against the same query through GRDB from Swift, and an insert seen by a screen bound to a
/// query, from the insert to the bytes of its frame, against the insert alone.
enum DatabaseBench {
    static func run() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-db-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let database = try? AppDatabase(path: folder.appendingPathComponent("app.sqlite").path) else { return }
        let services = ServiceRegistry()
        BundleDatabase.register(database, in: services)
        let runtime = ScriptRuntime(services: services, timeLimit: 600)
        runtime.evaluate("""
        globalThis.rows = Array.from({ length: 10000 }, (_, i) => [`item ${i}`, i * 0.5, i % 7]);
        globalThis.reset = () => {
          db.exec('DROP TABLE IF EXISTS items');
          db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, qty INTEGER)');
        };
        globalThis.fill = () => db.batch('INSERT INTO items (name, price, qty) VALUES (?, ?, ?)', rows);
        globalThis.lookups = (n) => { let sum = 0; for (let i = 0; i < n; i++) sum += db.query('SELECT * FROM items WHERE id = ?', [1 + (i % 9000)])[0].qty; return sum; };
        """)
        print("Database (db from a script; medians)")
        // As the Python reference does, the table is made again before each run, untimed.
        let batch = Bench.measure(runs: 5, setUp: { runtime.evaluate("reset()") }) { runtime.evaluate("fill()") }
        let pythonFile = folder.appendingPathComponent("python.sqlite").path
        if let python = Python.output(["scripts/bench-sqlite.py", pythonFile, "10000", "5"]).flatMap(Double.init) {
            print("  db.batch of 10,000 rows, one transaction  \(String(format: "%8.2f", batch)) ms  (\(String(format: "%.2f", batch / python))x Python sqlite3 executemany of the same rows: \(String(format: "%.2f", python)) ms)")
        } else {
            print("  db.batch of 10,000 rows, one transaction  \(String(format: "%8.2f", batch)) ms  (no python3 for the reference)")
        }
        let calls = 10_000
        let query = Bench.measure(runs: 5) { runtime.evaluate("lookups(\(calls))") } * 1e6 / Double(calls)
        let queue = try? DatabaseQueue(path: database.path)
        let swift = Bench.measure(runs: 5) {
            _ = try? queue?.read { db in
                var sum = 0
                for i in 0..<calls { sum += try Row.fetchOne(db, sql: "SELECT * FROM items WHERE id = ?", arguments: [1 + i % 9000])?["qty"] ?? 0 }
                return sum
            }
        } * 1e6 / Double(calls)
        print("  one-row db.query                           \(String(format: "%8.0f", query)) ns  (\(String(format: "%.2f", query / swift))x the same query through GRDB from Swift: \(String(format: "%.0f", swift)) ns)")
        do {
            try watchedInsert(in: folder.appendingPathComponent("app"))
        } catch {
            print("  insert seen by a screen: \(error)")
        }
    }

    /// A bundle whose screen lists the newest 30 of 10,000 rows and their count through an `sql`
    /// block; the host inserts a row through `app.database`, and the time runs until the frame's
    /// bytes are encoded: the commit, the watch's query again, the post to the loop, the render and
    /// the diff. The reference is the same insert into a database nobody watches.
    private static func watchedInsert(in folder: URL) throws {
        let files = [
            "manifest.json": #"{"app": "bench-notes", "version": "1.0.0", "start": "list", "screens": {"list": "list.json"}, "database": {"migrations": "migrations"}, "permissions": ["db"]}"#,
            "migrations/0001-items.sql": """
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
            INSERT INTO items (name, price) SELECT 'item ' || i, i * 0.5 FROM n;
            """,
            "list.json": """
            {"format": 1, "id": "list",
             "data": {"items": {"sql": "SELECT id, name, price FROM items ORDER BY id DESC LIMIT 30"},
                      "count": {"sql": "SELECT count(*) AS n FROM items"}},
             "body": {"type": "column", "children": [
               {"type": "list", "id": "count", "items": "@{count.data}", "visible": "@{count.status == 'ok'}", "style": {"height": 1},
                "template": {"type": "text", "text": "@{item.n} items", "style": {"bold": true}}},
               {"type": "list", "id": "items", "items": "@{items.data}", "visible": "@{items.status == 'ok'}",
                "template": {"type": "row", "children": [{"type": "text", "text": "@{item.name}", "style": {"flex": 1}}, {"type": "text", "text": "@{item.price}", "style": {"width": 10}}]}}]}}
            """,
        ]
        for (name, text) in files {
            let file = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        setenv("XDG_DATA_HOME", folder.appendingPathComponent("data").path, 1)
        guard let bundle = BundleFolder.open(folder.path).value else { throw AppError("\(folder.path): the bench bundle does not open") }
        let app = HybridApp()
        app.size = TerminalSize(columns: Bench.width, rows: Bench.height)
        try app.load(bundle: bundle)
        guard let database = app.database else { throw AppError("the bench bundle has no database") }
        let encoder = FrameEncoder(colors: .trueColor)
        _ = app.render()
        app.loop.advance(by: 0)
        var previous = app.render()
        var bytes = 0
        var next = 0
        let seen = Bench.measure(runs: 500) {
            next += 1
            _ = try? database.exec("INSERT INTO items (name, price) VALUES (?, ?)", params: .array([.string("new \(next)"), .number(Double(next))]))
            // The watch ran the query again at the commit and posted its rows: one loop turn
            // hands them to the screen.
            app.loop.advance(by: 0)
            let frame = app.render()
            bytes = encoder.encode(from: previous, to: frame).count
            previous = frame
        }
        guard previous.plainLines().joined().contains("new \(next)") else { throw AppError("the screen did not show the last insert") }
        let alone = try AppDatabase(path: folder.appendingPathComponent("alone.sqlite").path)
        _ = try alone.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL)")
        let insert = Bench.measure(runs: 500) {
            next += 1
            _ = try? alone.exec("INSERT INTO items (name, price) VALUES (?, ?)", params: .array([.string("new \(next)"), .number(Double(next))]))
        }
        print("  insert seen by a screen bound to a query   \(String(format: "%8.3f", seen)) ms, \(bytes) B  (the insert alone, nobody watching: \(String(format: "%.3f", insert)) ms)")
    }
}
