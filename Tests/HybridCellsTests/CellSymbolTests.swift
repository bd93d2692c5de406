@testable import HybridCells
import XCTest

/// A cell's symbol is held as bytes, inline up to 15 and numbered beyond: whatever goes in
/// comes out byte for byte, and cells compare by those bytes.
final class CellSymbolTests: XCTestCase {
    static let clusters = [
        "", " ", "a", "~", "\u{0}", "é", "e\u{301}", "漢", "🚀", "│", "╭",
        "123456789012345", // 15 bytes: the most held inline
        "ab\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}", // 14 bytes
        "👨‍👩‍👧‍👦", // 25 bytes
        "🏴󠁧󠁢󠁳󠁣󠁴󠁿", // a flag with tags, 28 bytes
        "e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}", // 15 bytes
        "e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}", // 17 bytes
    ]

    func testEveryClusterComesBackByteForByte() {
        for cluster in Self.clusters {
            let symbol = CellSymbol(cluster)
            XCTAssertTrue(symbol.string.utf8.elementsEqual(cluster.utf8), "\(cluster.debugDescription)")
            XCTAssertEqual(symbol.utf8Count, cluster.utf8.count, "\(cluster.debugDescription)")
            XCTAssertEqual(symbol.isEmpty, cluster.isEmpty)
            var bytes: [UInt8] = [0x41]
            symbol.append(to: &bytes)
            XCTAssertEqual(bytes, [0x41] + Array(cluster.utf8), "\(cluster.debugDescription)")
            // Made again, it is the same symbol (a long one keeps its number).
            XCTAssertEqual(CellSymbol(cluster), symbol)
        }
    }

    func testCellsCompareByTheBytesTheyShow() {
        for (index, cluster) in Self.clusters.enumerated() {
            let cell = Cell(symbol: cluster, style: CellStyle(attributes: .bold))
            XCTAssertTrue(cell.symbol.utf8.elementsEqual(cluster.utf8))
            XCTAssertEqual(cell, Cell(symbol: cluster, style: CellStyle(attributes: .bold)))
            XCTAssertNotEqual(cell, Cell(symbol: cluster))
            XCTAssertEqual(cell.hashValue, Cell(symbol: cluster, style: CellStyle(attributes: .bold)).hashValue)
            for (other, otherCluster) in Self.clusters.enumerated() where other != index {
                XCTAssertNotEqual(cell, Cell(symbol: otherCluster, style: CellStyle(attributes: .bold)), "\(cluster.debugDescription) and \(otherCluster.debugDescription)")
            }
            var bytes: [UInt8] = []
            cell.appendSymbol(to: &bytes)
            XCTAssertEqual(bytes, Array(cluster.utf8))
            XCTAssertEqual(cell.symbolUTF8Count, cluster.utf8.count)
        }
        // Canonically equivalent, but sent as different bytes.
        XCTAssertNotEqual(Cell(symbol: "é"), Cell(symbol: "e\u{301}"))
        XCTAssertNotEqual(Cell(symbol: "K"), Cell(symbol: "\u{212A}"))
    }

    /// A cluster too long to keep, or a new one when the table is full, is drawn as a stand-in
    /// as wide as it, so the rest of its row stays in place.
    func testClustersNotKeptAreDrawnAsWideStandIns() throws {
        let table = LongSymbols(capacity: 2)
        let kept = ["👨‍👩‍👧‍👦", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"]
        for cluster in kept { XCTAssertEqual(CellSymbol(cluster, longSymbols: table).string, cluster) }
        let wide = "👩‍👩‍👦‍👦"
        XCTAssertEqual(DisplayWidth.ofSymbol(wide), 2)
        XCTAssertEqual(CellSymbol(wide, longSymbols: table).string, "\u{3013}")
        XCTAssertEqual(DisplayWidth.ofSymbol("\u{3013}"), 2)
        let narrow = "e" + String(repeating: "\u{301}", count: 8)
        XCTAssertEqual(DisplayWidth.ofSymbol(narrow), 1)
        XCTAssertEqual(CellSymbol(narrow, longSymbols: table).string, "\u{FFFD}")
        // Each stand-in measures as its cluster does, whatever the cluster's width.
        func columns(_ width: Int) -> Int { (0...2).contains(width) ? width : -1 }
        for cluster in [wide, narrow, String(repeating: "\u{301}", count: 8), String(repeating: "x", count: 20)] {
            let standIn = CellSymbol(cluster, longSymbols: table).string
            XCTAssertEqual(columns(DisplayWidth.ofSymbol(standIn)), columns(DisplayWidth.ofSymbol(cluster)), cluster.debugDescription)
            XCTAssertNil(DisplayWidth.printableASCIIByte(of: standIn))
        }
        // Those kept before are still there; the shared table refuses what is too long.
        for cluster in kept { XCTAssertEqual(CellSymbol(cluster, longSymbols: table).string, cluster) }
        let tooLong = "e" + String(repeating: "\u{301}", count: LongSymbols.maximumLength)
        XCTAssertEqual(Cell(symbol: tooLong).symbol, "\u{FFFD}")
        XCTAssertEqual(Cell(symbol: tooLong).columns, 1)
    }

    func testWritesKeepWideAndLongClustersWhole() {
        var buffer = Buffer(width: 12, height: 1)
        buffer.write("a👨‍👩‍👧‍👦b漢", x: 0, y: 0, limit: 12, style: .plain)
        XCTAssertEqual((0..<7).map { buffer[$0, 0].symbol }, ["a", "👨‍👩‍👧‍👦", "", "b", "漢", "", " "])
        XCTAssertTrue(buffer[2, 0].isContinuation)
        // Overwriting a wide glyph's left half blanks its right half.
        buffer.write("x", x: 4, y: 0, limit: 12, style: .plain)
        XCTAssertEqual(buffer[4, 0].symbol, "x")
        XCTAssertEqual(buffer[5, 0].symbol, " ")
    }
}
