import Foundation
@testable import HybridDatabase
import HybridJSON
import TestSupport
import XCTest

/// Rows as scripts get them equal what Python's sqlite3 module reads from the same file with
/// the same statements: a few hundred generated SELECTs over a seeded table of every type,
/// integers past 2^53, BLOBs and NULLs included.
final class PythonAgreementTests: XCTestCase {
    func testGeneratedSelectsAgreeWithPythonsSQLite() throws {
        let folder = try TemporaryDirectory("python-agreement")
        let path = folder.url.appendingPathComponent("seeded.sqlite").path
        let db = try AppDatabase(path: path)
        _ = try db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT, b BLOB, m)")
        var random = SeededRandom(seed: 14)
        var rows: [JSONValue] = []
        let words = ["tea", "Tea", "o'clock", "ünïcode ☕", "", "a\"b", "NULL", "100"]
        for id in 1...240 {
            let n: JSONValue = id % 17 == 0 ? .string(String(9_007_199_254_740_993 + id)) : id % 11 == 0 ? .null : .integer(random.next(2000) - 1000)
            let r: JSONValue = id % 13 == 0 ? .null : .number(Double(random.next(100_000)) / 8 - 5000)
            let s: JSONValue = .string(words[random.next(words.count)] + (id % 3 == 0 ? " \(id)" : ""))
            let b: JSONValue = id % 5 == 0 ? .object(JSONObject([("$bytes", .array((0..<random.next(6)).map { _ in .integer(random.next(256)) }))])) : .null
            let m: JSONValue = [JSONValue.integer(id), .string("m\(id)"), .number(Double(id) / 4), .null][id % 4]
            rows.append(.array([.integer(id), n, r, s, b, m]))
        }
        _ = try db.batch("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", paramsList: rows)
        // Big integers went in as text; make them INTEGER as SQLite stores them from a literal.
        _ = try db.exec("UPDATE t SET n = CAST(n AS INTEGER) WHERE typeof(n) = 'text'")

        let columns = ["id", "n", "r", "s", "b", "m"]
        var statements: [String] = []
        for _ in 0..<300 {
            let chosen = columns.filter { _ in random.next(2) == 0 }
            let list = chosen.isEmpty ? "*" : chosen.joined(separator: ", ")
            let compared = ["n", "r", "id"][random.next(3)]
            let bound = random.next(1000) - 500
            let order = columns[random.next(columns.count)]
            switch random.next(5) {
            case 0: statements.append("SELECT \(list) FROM t WHERE \(compared) > \(bound) ORDER BY \(order), id LIMIT \(random.next(30) + 1)")
            case 1: statements.append("SELECT count(*) AS c, sum(n) AS total, avg(r) AS mean, max(s) AS top FROM t WHERE id % \(random.next(7) + 2) = 0")
            case 2: statements.append("SELECT s, count(*) AS c, typeof(m) AS kind FROM t GROUP BY s, typeof(m) ORDER BY s, kind")
            case 3: statements.append("SELECT id, n * 2 AS twice, r / 3 AS third, length(b) AS size, s || '!' AS loud FROM t WHERE s LIKE '%\(["t", "o", "1", "é"][random.next(4)])%' ORDER BY id")
            default: statements.append("SELECT \(list) FROM t WHERE m IS NULL OR b IS NOT NULL ORDER BY id DESC LIMIT \(random.next(40) + 1) OFFSET \(random.next(20))")
            }
        }
        let ours = try statements.map { try db.query($0) }
        // Not a comparison of nothings: many rows, big integers and BLOBs among them.
        let all = ours.flatMap { $0 }
        XCTAssertGreaterThan(all.count, 1000)
        XCTAssertTrue(all.contains { $0["n"]?.stringValue?.hasPrefix("900719925474") == true })
        XCTAssertTrue(all.contains { $0["b"]?["$bytes"] != nil })
        let listing = folder.url.appendingPathComponent("statements.sql")
        try statements.joined(separator: "\n").write(to: listing, atomically: true, encoding: .utf8)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let (status, output) = try PythonCheck.run("Tests/python/sqlite_rows.py", [path, listing.path], in: repository)
        XCTAssertEqual(status, 0, output)
        guard case .array(let theirs) = try JSONParser.parse(Array(output.utf8)).plain else { return XCTFail(output) }
        XCTAssertEqual(theirs.count, statements.count)
        for (index, statement) in statements.enumerated() where index < theirs.count {
            XCTAssertEqual(JSONValue.array(ours[index]), theirs[index], statement)
        }
    }
}
