import TestSupport
import XCTest
import HybridCells
@testable import HybridTerminal

/// Byte-exact expectations are written with "⎋" standing for ESC.
private func visible(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{1B}", with: "⎋")
}

/// A frame whose rows are `rows`, each drawn in `style`.
private func frame(_ width: Int, _ rows: [String], style: CellStyle = .plain) -> Buffer {
    var b = Buffer(width: width, height: rows.count)
    for (y, row) in rows.enumerated() { b.write(row, x: 0, y: y, limit: width, style: style) }
    return b
}

/// Scrolling moves lines on the terminal (DL/IL) and sends only the rows that come into view.
final class LineShiftTests: XCTestCase {
    let encoder = FrameEncoder(colors: .trueColor)

    /// The numbered lines `first...last` under a header.
    private func list(_ first: Int, _ last: Int, header: String = "head", footer: String? = nil) -> [String] {
        [header] + (first...last).map { "line \($0)" } + (footer.map { [$0] } ?? [])
    }

    func testScrollUpToTheBottomDeletesOneLineAndWritesTheNewRow() {
        let before = frame(12, list(1, 5))
        let after = frame(12, list(2, 6))
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[2H⎋[M⎋[6Hline 6")
        assertReplays(before, after)
    }

    func testScrollDownToTheBottomInsertsOneLine() {
        let before = frame(12, list(2, 6))
        let after = frame(12, list(1, 5))
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[2H⎋[Lline 1")
        assertReplays(before, after)
    }

    func testABandAboveAFixedFooterIsDeletedAtItsTopAndInsertedAboveTheFooter() {
        let before = frame(12, list(1, 5, footer: "foot"))
        let after = frame(12, list(2, 6, footer: "foot"))
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[2H⎋[M⎋[6H⎋[Lline 6")
        assertReplays(before, after)
    }

    func testScrollDownAboveAFixedFooter() {
        let before = frame(12, list(2, 6, footer: "foot"))
        let after = frame(12, list(1, 5, footer: "foot"))
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[6H⎋[M⎋[2H⎋[Lline 1")
        assertReplays(before, after)
    }

    func testAScrollOfSeveralLinesMovesThemInOneOperation() {
        let before = frame(12, list(1, 8))
        let after = frame(12, list(4, 11))
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)),
                       "⎋[2H⎋[3M⎋[7Hline 9\r\nline 10\r\nline 11")
        assertReplays(before, after)
    }

    func testStyledRowsMoveWithTheirStyles() {
        let style = CellStyle(foreground: .rgb(255, 136, 0), background: .rgb(32, 32, 64), attributes: [.bold])
        let before = frame(10, list(1, 6), style: style)
        let after = frame(10, list(2, 7), style: style)
        let bytes = encoder.encode(from: before, to: after)
        XCTAssertTrue(visible(bytes).hasPrefix("⎋[2H⎋[M"), visible(bytes))
        assertReplays(before, after)
    }

    func testWithoutLineMovesEveryChangedRowIsRewritten() {
        let before = frame(12, list(1, 5))
        let after = frame(12, list(2, 6))
        let bytes = FrameEncoder(colors: .trueColor, movesLines: false).encode(from: before, to: after)
        XCTAssertFalse(visible(bytes).contains("M"), visible(bytes))
        XCTAssertFalse(visible(bytes).contains("L"), visible(bytes))
        assertReplays(before, after, encoder: FrameEncoder(colors: .trueColor, movesLines: false))
    }

    func testTwoChangedRowsAreRewrittenNotMoved() {
        let before = frame(12, ["a", "b", "c", "d"])
        let after = frame(12, ["a", "c", "d", "d"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[2Hc\r\nd")
    }

    func testAShiftThatWouldBlankMoreThanItSavesIsNotMade() {
        // Row 1 shows the previous row 5, but moving it there would blank the unchanged rows
        // 2–5 below it: one row saved, four lost.
        let before = frame(8, ["x", "a", "b", "c", "d", "e", "f", "g", "h"])
        let after = frame(8, ["x", "e", "b", "c", "d", "e", "f", "y", "z"])
        let bytes = encoder.encode(from: before, to: after)
        XCTAssertFalse(visible(bytes).contains("⎋[M"), visible(bytes))
        assertReplays(before, after)
    }

    func testTheDetectedShiftNamesTheBandAndTheDistance() {
        let before = frame(12, list(1, 5, footer: "foot"))
        let after = frame(12, list(3, 7, footer: "foot"))
        let changed = (0..<before.height).map { y in (0..<before.width).contains { before[$0, y] != after[$0, y] } }
        let shift = before.cells.withUnsafeBufferPointer { previous in
            after.cells.withUnsafeBufferPointer { next in
                LineShift.find(previous: previous, next: next, width: 12, height: 7, changed: changed)
            }
        }
        XCTAssertEqual(shift, LineShift(top: 1, bottom: 5, distance: 2))
        XCTAssertEqual((0..<7).map { shift?.source(ofRow: $0) }, [0, 3, 4, 5, nil, nil, 6])
    }

    /// Random scrolls of random bands, with edits before and after: the bytes always replay
    /// to the frame, with styles and wide glyphs.
    func testRandomScrollsReplayExactly() {
        var random = SeededRandom(seed: 7)
        let styles = [CellStyle.plain, CellStyle(attributes: .bold), CellStyle(background: .rgb(1, 2, 3))]
        let pieces = ["lorem", "漢字", "🚀 x", "ipsum dolor", "a"]
        for _ in 0..<200 {
            let width = 4 + random.next(12)
            let height = 3 + random.next(10)
            var before = Buffer(width: width, height: height)
            for y in 0..<height {
                before.write(pieces[random.next(pieces.count)] + "\(y)", x: random.next(3), y: y, limit: width,
                             style: styles[random.next(styles.count)])
            }
            var after = before
            let top = random.next(height - 1)
            let bottom = top + 1 + random.next(height - top - 1)
            let distance = (1 + random.next(bottom - top)) * (random.next(2) == 0 ? 1 : -1)
            for y in top...bottom {
                let from = y + distance
                for x in 0..<width {
                    after[x, y] = (top...bottom).contains(from) ? before[x, from] : Cell.blank
                }
            }
            if random.next(2) == 0 {
                after.write("new", x: random.next(width), y: random.next(height), limit: width, style: styles[random.next(styles.count)])
            }
            assertReplays(before, after)
        }
    }

    private func assertReplays(_ before: Buffer, _ after: Buffer, encoder: FrameEncoder? = nil,
                               file: StaticString = #filePath, line: UInt = #line) {
        let encoder = encoder ?? self.encoder
        var screen = TerminalModel(width: before.width, height: before.height)
        screen.feed(encoder.encode(from: nil, to: before))
        screen.feed(encoder.encode(from: before, to: after))
        XCTAssertEqual(StyledFrame.text(of: screen.screen), StyledFrame.text(of: after), file: file, line: line)
    }
}
