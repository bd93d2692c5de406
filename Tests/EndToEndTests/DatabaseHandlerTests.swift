import Foundation
import HybridDatabase
import TestSupport
import XCTest

/// `db.handler(table, op, fn(change, tx))` (SPEC §7.3) through the real binary: it runs inside
/// the writing transaction with `{table, op, row, previous}`, its writes commit with the write
/// that caused them (one watch call for both), and a throw rolls the whole transaction back.
final class DatabaseHandlerTests: XCTestCase {
    static let schema = DatabaseScriptTests.schema.merging([
        "0002-counts.sql": "CREATE TABLE counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL);\nINSERT INTO counts VALUES ('notes', 0);\nCREATE TABLE history (note INTEGER, op TEXT, was TEXT, now TEXT);\n",
    ]) { $1 }

    func run(_ script: String) throws -> (status: Int32, line: String, errors: String) {
        let result = try DatabaseScriptTests.run(script, migrations: Self.schema, size: "600x2")
        // Where an E_SQL was called, without the bundle's temporary folder.
        let line = result.frame.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: #"\(called at [^)]*/main\.js:"#, with: "(main.js:", options: .regularExpression)
        return (result.status, line, result.errors)
    }

    /// Handlers keep related rows in step with every writer the script has: `exec`, `batch`,
    /// a table's `insert`/`update`/`remove`, `tx` inside a transaction.
    func testHandlersKeepRelatedRowsInStepInsideTheWritingTransaction() throws {
        let (status, line, errors) = try run("""
        const bump = (by) => (change, tx) => tx.exec("UPDATE counts SET n = n + ? WHERE name = 'notes'", [by]);
        db.handler('notes', 'insert', bump(1));
        db.handler('notes', 'delete', bump(-1));
        db.handler('notes', 'update', (change, tx) => {
          tx.exec('INSERT INTO history VALUES (?, ?, ?, ?)', [change.row.id, change.op, change.previous.title, change.row.title]);
        });
        db.handler('notes', 'delete', (change, tx) => {
          if (change.row !== null) throw new Error('a deleted row has no row after');
          tx.exec('INSERT INTO history VALUES (?, ?, ?, NULL)', [change.previous.id, change.op, change.previous.title]);
        });
        // Watches are told on the loop, after the script: the last call shows the final state.
        const seen = [];
        db.watch("SELECT n FROM counts WHERE name = 'notes'", [], (rows) => {
          seen.push(rows[0].n);
          const real = db.query('SELECT count(*) AS n FROM notes')[0].n;
          const history = db.query('SELECT note, op, was, now FROM history ORDER BY rowid').map((h) => `${h.note}:${h.op}:${h.was}>${h.now}`);
          store.set('line', `${rows[0].n}=${real} seen ${seen.join(',')} | ${history.join(' ')}`);
        });
        db.exec("INSERT INTO notes (title) VALUES ('tea')");
        db.batch('INSERT INTO notes (title) VALUES (?)', [['a'], ['b'], ['c']]);
        const notes = db.table('notes');
        notes.insert({ title: 'bytes', body: new Uint8Array([7]) });
        notes.update(1, { title: 'TEA' });
        notes.remove(2);
        db.transaction((tx) => { tx.exec('DELETE FROM notes WHERE id > 3'); });
        hybrid.ready();
        """)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(line, "2=2 seen 0,1,4,5,4,2 | 1:update:tea>TEA 2:delete:a>null 4:delete:c>null 5:delete:bytes>null", errors)
    }

    /// A throw in a handler rolls back the write that called it and everything done since; the
    /// writer gets the handler's error. A handler that keeps writing what it handles is stopped.
    func testAThrowingHandlerRollsTheWriteBack() throws {
        let (status, line, errors) = try run("""
        const handle = db.handler('notes', 'insert', (change, tx) => {
          tx.exec("UPDATE counts SET n = n + 1 WHERE name = 'notes'");
          if (change.row.title === 'bad') throw new Error('no bad notes');
        });
        const outcomes = [];
        const attempt = (what, fn) => { try { fn(); outcomes.push(`${what} ok`); } catch (error) { outcomes.push(`${what} ${error.message}`); } };
        attempt('exec', () => db.exec("INSERT INTO notes (title) VALUES ('bad')"));
        attempt('batch', () => db.batch('INSERT INTO notes (title) VALUES (?)', [['good'], ['bad']]));
        attempt('tx', () => db.transaction((tx) => { tx.exec("INSERT INTO notes (title) VALUES ('fine')"); tx.exec("INSERT INTO notes (title) VALUES ('bad')"); }));
        attempt('good', () => db.exec("INSERT INTO notes (title) VALUES ('good')"));
        handle.remove();
        attempt('removed', () => db.exec("INSERT INTO notes (title) VALUES ('bad')"));
        db.handler('notes', 'insert', (change, tx) => { tx.exec("INSERT INTO notes (title) VALUES ('again')"); });
        attempt('loop', () => db.exec("INSERT INTO notes (title) VALUES ('x')"));
        attempt('table', () => db.handler('nowhere', 'insert', () => {}));
        attempt('op', () => db.handler('notes', 'upsert', () => {}));
        const titles = db.query('SELECT title FROM notes ORDER BY id').map((n) => n.title);
        const count = db.query("SELECT n FROM counts WHERE name = 'notes'")[0].n;
        store.set('line', `${outcomes.join(' / ')} | ${titles} ${count}`);
        hybrid.ready();
        """)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(line, [
            "exec no bad notes / batch no bad notes / tx no bad notes / good ok / removed ok",
            "loop db.handler: handlers nested 16 deep (does a handler write the rows it handles?) (main.js:13:56)",
            #"table db.handler("nowhere", "insert"): no such table: nowhere (main.js:15:34)"#,
            #"op db.handler(table, op, fn): op is "insert", "update" or "delete", not "upsert" | good,bad 1"#,
        ].joined(separator: " / "), errors)
    }

    /// The notes sample stamps an edit through its `db.handler`, not its save handler: the edited
    /// note rises to the top of the list with a fresh time, the others keep theirs.
    func testTheNotesSampleStampsAnEditThroughItsHandler() throws {
        let data = try TemporaryDirectory("notes-handler")
        let environment = ["XDG_DATA_HOME": data.path]
        let sample = CommandRunner.repository.appendingPathComponent("samples/notes").path
        let first = try CommandRunner.hybrid(["run", sample, "--headless", "--size", "60x8"], environment: environment)
        XCTAssertEqual(first.status, 0, first.standardError)
        _ = try AppDatabase.forApp("notes", environment: environment).exec("UPDATE notes SET updated = '2000-01-01 00:00:00'")

        let edited = try CommandRunner.hybrid(["run", sample, "--headless", "--size", "60x8", "--keys", #"tab down down enter e " tea" ctrl+s esc"#],
                                              environment: environment)
        XCTAssertEqual(edited.status, 0, edited.standardError)
        let rows = edited.standardOutput.split(separator: "\n").dropFirst(2).prefix(3).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(rows.map { String($0.prefix(10)) }, ["Sencha tea", "Shopping  ", "Assam     "], edited.standardOutput)
        XCTAssertFalse(rows.first?.hasSuffix("2000-01-01 00:00:00") ?? true, "the edit was stamped: \(edited.standardOutput)")
        XCTAssertTrue(rows.dropFirst().allSatisfy { $0.hasSuffix("2000-01-01 00:00:00") }, "only the edited note was: \(edited.standardOutput)")
    }

    /// The notes sample asks before deleting (ui.dialog) and says it did (ui.toast).
    func testTheNotesSampleAsksBeforeDeleting() throws {
        let data = try TemporaryDirectory("notes-delete")
        let sample = CommandRunner.repository.appendingPathComponent("samples/notes").path
        func frame(_ keys: String) throws -> [String] {
            let result = try CommandRunner.hybrid(["run", sample, "--headless", "--size", "60x10", "--keys", keys], environment: ["XDG_DATA_HOME": data.path])
            XCTAssertEqual(result.status, 0, result.standardError)
            return result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let asked = try frame("tab enter ctrl+d")
        XCTAssertTrue(asked.contains { $0.contains("┌─ Delete the note? ─") }, asked.joined(separator: "\n"))
        XCTAssertTrue(asked.contains { $0.contains("\"Shopping\" goes for good.") }, asked.joined(separator: "\n"))
        let kept = try frame("tab enter ctrl+d esc")
        XCTAssertTrue(kept[0].hasPrefix("╭ Shopping "), "Esc keeps the note and its screen: \(kept.joined(separator: "\n"))")
        let deleted = try frame("tab enter ctrl+d tab enter")
        XCTAssertTrue(deleted[0].hasPrefix("Notes") && deleted[0].hasSuffix("• Deleted \"Shopping\""), deleted.joined(separator: "\n"))
        XCTAssertFalse(deleted.dropFirst().contains { $0.hasPrefix("Shopping") }, deleted.joined(separator: "\n"))
    }
}
