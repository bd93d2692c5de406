import Foundation
import HybridBundles
import HybridEventLoop
import HybridJSON
import HybridRuntime
import HybridTerminal
import TestSupport
import XCTest

/// A screen bound to queries (`sql` data blocks) shows, in the next frame, a row from any
/// writer: the host's Swift code through `app.database`, a script, and a `db.handler` keeping a
/// related table in step inside the script's transaction.
final class DatabaseScreenTests: XCTestCase {
    func makeApp() throws -> HybridApp {
        let folder = try makeTemporaryDirectory("db-screen")
        let data = try makeTemporaryDirectory("db-screen-data")
        let previous = ProcessInfo.processInfo.environment["XDG_DATA_HOME"]
        setenv("XDG_DATA_HOME", data.path, 1)
        addTeardownBlock {
            if let previous { setenv("XDG_DATA_HOME", previous, 1) } else { unsetenv("XDG_DATA_HOME") }
        }
        let files = [
            "manifest.json": #"{"app": "db-screen", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "database": {"migrations": "migrations"}, "permissions": ["db"]}"#,
            "migrations/0001-create.sql": "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT);\nCREATE TABLE log (line TEXT);\nINSERT INTO notes (title) VALUES ('sencha');\n",
            "home.json": """
            {"format": 1, "id": "home", "keys": {"a": "add"},
             "data": {"notes": {"sql": "SELECT title FROM notes ORDER BY id"}, "log": {"sql": "SELECT line FROM log ORDER BY rowid"}},
             "body": {"type": "row", "children": [
               {"type": "list", "visible": "@{notes.page > 0}", "items": "@{notes.data}", "template": {"type": "text", "text": "@{item.title}"}},
               {"type": "list", "visible": "@{log.page > 0}", "items": "@{log.data}", "template": {"type": "text", "text": "@{item.line}"}}]}}
            """,
            "main.js": """
            db.handler('notes', 'insert', (change, tx) => tx.exec('INSERT INTO log VALUES (?)', [`added ${change.row.title}`]));
            ui.handler('add', () => db.exec("INSERT INTO notes (title) VALUES ('assam')"));
            hybrid.ready();
            """,
        ]
        for (name, contents) in files {
            let file = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: file, atomically: true, encoding: .utf8)
        }
        let app = HybridApp(loop: EventLoop(clock: .manual(ManualClock())))
        app.size = TerminalSize(columns: 40, rows: 3)
        try app.load(bundle: XCTUnwrap(BundleFolder.open(folder.path).value))
        return app
    }

    /// The two lists side by side, row by row: notes, then log lines.
    func nextFrame(_ app: HybridApp) -> [String] {
        // One loop turn hands the watches' rows to the screen, as the running app's loop does
        // before it draws.
        app.loop.advance(by: 0)
        return app.render().plainLines().map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
    }

    func testEveryWriterReachesTheNextFrame() throws {
        let app = try makeApp()
        _ = app.render()
        XCTAssertEqual(nextFrame(app), ["sencha", "", ""])

        _ = try XCTUnwrap(app.database).exec("INSERT INTO notes (title) VALUES (?)", params: .array([.string("from-swift")]))
        XCTAssertEqual(nextFrame(app), ["sencha", "from-swift", ""], "the host's write; host writes run no handlers")

        app.handle(.key("a"))
        XCTAssertEqual(nextFrame(app), ["sencha added assam", "from-swift", "assam"], "the script's insert and its handler's log line, one frame")
    }
}
