import Foundation
import GRDB
import HybridTerm

/// The database's figures (BENCHMARKS.md), each against a reference measured in the same run:
/// `db.batch` of 10,000 rows from a script against Python's `sqlite3` `executemany` of the same
/// rows into the same schema (`scripts/bench-sqlite.py`), and a one-row `db.query` from a script
/// against the same query through GRDB from Swift.
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
        globalThis.fill = () => {
          db.exec('DROP TABLE IF EXISTS items');
          db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, qty INTEGER)');
          return db.batch('INSERT INTO items (name, price, qty) VALUES (?, ?, ?)', rows);
        };
        globalThis.lookups = (n) => { let sum = 0; for (let i = 0; i < n; i++) sum += db.query('SELECT * FROM items WHERE id = ?', [1 + (i % 9000)])[0].qty; return sum; };
        """)
        print("Database (db from a script; medians)")
        let batch = Bench.measure(runs: 5) { runtime.evaluate("fill()") }
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
    }
}
