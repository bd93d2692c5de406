import TestSupport
import XCTest
import HybridCells
@testable import HybridTerminal

/// Byte-exact expectations are written with "⎋" standing for ESC.
private func visible(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{1B}", with: "⎋")
}

private func buffer(_ width: Int, _ height: Int, _ rows: [String] = [], style: CellStyle = .plain) -> Buffer {
    var b = Buffer(width: width, height: height)
    for (y, row) in rows.enumerated() { b.write(row, x: 0, y: y, limit: width, style: style) }
    return b
}

final class FrameEncoderTests: XCTestCase {
    let encoder = FrameEncoder(colors: .trueColor)

    func testUnchangedFrameProducesNoBytes() {
        let frame = buffer(10, 3, ["hello", "", "world"])
        XCTAssertEqual(encoder.encode(from: frame, to: frame), [])
    }

    func testOneChangedCharacter() {
        let before = buffer(10, 3, ["", "hello"])
        let after = buffer(10, 3, ["", "hallo"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[2;2Ha")
    }

    func testAdjacentChangesNeedOneMove() {
        let before = buffer(10, 1, ["Count: 9"])
        let after = buffer(10, 1, ["Count: 10"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[1;8H10")
    }

    func testSmallGapIsRewrittenInsteadOfMoved() {
        let before = buffer(10, 1, ["abcdef"])
        let after = buffer(10, 1, ["XbcYef"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[HXbcY")
    }

    func testLargerGapUsesCursorForward() {
        let before = buffer(20, 1, ["abcdefghijklmn"])
        let after = buffer(20, 1, ["XbcdefghijklmZ"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[HX⎋[14GZ", "CHA and CUF tie; either is fine")
    }

    func testStyledGapIsNotRewritten() {
        var before = buffer(10, 1, ["abcdef"])
        before.applyStyle(CellStyle(attributes: .bold), to: Rect(x: 1, y: 0, width: 1, height: 1))
        var after = before
        after[0, 0].symbol = "X"
        after[3, 0].symbol = "Y"
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[HX⎋[4GY")
    }

    func testNextRowUsesCarriageReturnLineFeed() {
        let before = buffer(10, 2, ["ab", "cd"])
        let after = buffer(10, 2, ["aX", "Yd"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[1;2HX\r\nY")
    }

    func testStyleTransitions() {
        let red = CellStyle(foreground: .ansi(1), attributes: .bold)
        let before = buffer(10, 1)
        var after = before
        after.write("ab", x: 0, y: 0, limit: 2, style: red)
        after.write("c", x: 2, y: 0, limit: 1, style: CellStyle(foreground: .ansi(1)))
        after.write("d", x: 3, y: 0, limit: 1, style: CellStyle(attributes: .italic))
        after.write("e", x: 4, y: 0, limit: 1, style: CellStyle(foreground: .rgb(1, 2, 3), background: .indexed(200)))
        after.write("f", x: 5, y: 0, limit: 1, style: CellStyle(foreground: .rgb(1, 2, 3)))
        XCTAssertEqual(
            visible(encoder.encode(from: before, to: after)),
            "⎋[H⎋[1;31mab⎋[22mc⎋[3;39md⎋[0;38;2;1;2;3;48;5;200me⎋[49mf⎋[0m"
        )
    }

    func testBrightAndIndexedColourCodes() {
        var after = buffer(4, 1)
        after.write("a", x: 0, y: 0, limit: 1, style: CellStyle(foreground: .ansi(9), background: .ansi(12)))
        after.write("b", x: 1, y: 0, limit: 1, style: CellStyle(foreground: .indexed(7), background: .ansi(0)))
        XCTAssertEqual(
            visible(encoder.encode(from: buffer(4, 1), to: after)),
            "⎋[H⎋[91;104ma⎋[38;5;7;40mb⎋[0m"
        )
    }

    func testColoursAreDegraded() {
        var after = buffer(4, 1)
        after.write("a", x: 0, y: 0, limit: 1, style: CellStyle(foreground: .rgb(255, 0, 0), attributes: .bold))
        let before = buffer(4, 1)
        XCTAssertEqual(visible(FrameEncoder(colors: .ansi256).encode(from: before, to: after)), "⎋[H⎋[1;38;5;196ma⎋[0m")
        XCTAssertEqual(visible(FrameEncoder(colors: .ansi16).encode(from: before, to: after)), "⎋[H⎋[1;91ma⎋[0m")
        XCTAssertEqual(visible(FrameEncoder(colors: .none).encode(from: before, to: after)), "⎋[H⎋[1ma⎋[0m")
    }

    func testColourOnlyChangeUnderNoColourWritesNothing() {
        let before = buffer(4, 1, ["ab"], style: CellStyle(foreground: .ansi(1)))
        let after = buffer(4, 1, ["ab"], style: CellStyle(foreground: .ansi(2)))
        XCTAssertEqual(visible(FrameEncoder(colors: .none).encode(from: before, to: after)), "⎋[Hab")
    }

    func testWideGlyphReplacesTwoNarrowOnes() {
        let before = buffer(6, 1, ["abcd"])
        let after = buffer(6, 1, ["a中d"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[1;2H中")
    }

    func testNarrowGlyphsReplaceAWideOne() {
        let before = buffer(6, 1, ["a中d"])
        let after = buffer(6, 1, ["abcd"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[1;2Hbc")
    }

    func testShiftedWideGlyphsAreRewrittenWhole() {
        let before = buffer(6, 1, ["a中x"])
        let after = buffer(6, 1, ["中bx"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[H中b")
    }

    func testOverwritingTheRightHalfRewritesTheGlyphStart() {
        let before = buffer(6, 1, [" 中"])
        var after = before
        after.write("x", x: 2, y: 0, limit: 1, style: .plain)   // blanks the left half too
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[1;2H x")
    }

    func testContinuationStyleAloneDoesNotRedraw() {
        let before = buffer(6, 1, ["中"])
        var after = before
        after[1, 0].style = CellStyle(attributes: .bold)
        XCTAssertEqual(encoder.encode(from: before, to: after), [])
    }

    func testChangedWideGlyphAfterCursorAdvancesTwoColumns() {
        let before = buffer(6, 1, ["中文x"])
        let after = buffer(6, 1, ["日本y"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[H日本y")
    }

    func testInconsistentCellsAreMadeSafe() {
        var after = buffer(4, 1)
        after[0, 0] = Cell(symbol: "\u{1B}[2J")      // would inject an escape sequence
        after[1, 0] = Cell.continuation()            // orphan continuation
        after[3, 0] = Cell(symbol: "中")             // wide glyph cut by the edge
        XCTAssertEqual(visible(encoder.encode(from: buffer(4, 1), to: after)), "⎋[H    ", "a one-byte gap is rewritten, not skipped")
    }

    func testBlankTailIsErased() {
        let before = buffer(20, 2, ["hello brave new world", "x"])
        let after = buffer(20, 2, ["hello", "x"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[1;7H⎋[K")
    }

    func testShortBlankTailIsWritten() {
        let before = buffer(20, 1, ["hello!"])
        let after = buffer(20, 1, ["hello"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[1;6H ")
    }

    func testEraseResetsStyledPenFirst() {
        let before = buffer(20, 2, ["", "abcdefgh"])
        var after = buffer(20, 2)
        after.write("X", x: 0, y: 0, limit: 1, style: CellStyle(attributes: .bold))
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[H⎋[1mX\r\n⎋[0m⎋[K")
    }

    func testFullRepaint() {
        var next = buffer(4, 2, ["ab"])
        next.write("c", x: 1, y: 1, limit: 1, style: CellStyle(attributes: .bold))
        XCTAssertEqual(visible(encoder.encode(from: nil, to: next)), "⎋[H⎋[0m⎋[2Jab\r\n⎋[C⎋[1mc⎋[0m")
    }

    func testFullRepaintOfBlankScreen() {
        XCTAssertEqual(visible(encoder.encode(from: nil, to: buffer(5, 3))), "⎋[H⎋[0m⎋[2J")
    }

    func testFullRepaintAfterFullRow() {
        let next = buffer(3, 2, ["abc", "d"])
        XCTAssertEqual(visible(encoder.encode(from: nil, to: next)), "⎋[H⎋[0m⎋[2Jabc\r\nd")
    }

    func testSizeChangeRepaints() {
        let before = buffer(3, 1, ["abc"])
        let after = buffer(4, 1, ["abc"])
        XCTAssertEqual(visible(encoder.encode(from: before, to: after)), "⎋[H⎋[0m⎋[2Jabc")
    }

    func testAFullRepaintShowsTheWholeFrameWithItsStyles() {
        var next = Buffer(width: 30, height: 4)
        next.write("Shop 中文 🇫🇷 ok", x: 2, y: 1, limit: 30, style: CellStyle(foreground: .ansi(2)))
        next.fill(Rect(x: 0, y: 3, width: 30, height: 1), symbol: "─", style: CellStyle(attributes: .dim))
        var screen = TerminalModel(width: 30, height: 4)
        screen.feed(encoder.encode(from: nil, to: next))
        XCTAssertEqual(StyledFrame.text(of: screen.screen), """
        |
        |  Shop 中文 🇫🇷 ok
        :  aaaaaaaaaaaaaaa
        |
        |──────────────────────────────
        :bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
        a = fg:green
        b = dim
        """)
        XCTAssertEqual(StyledFrame.text(of: screen.screen), StyledFrame.text(of: next), "the terminal shows the frame")
    }

    func testLabelUpdateOnLargeScreenIsSmall() {
        var before = Buffer(width: 120, height: 40)
        for y in 0..<40 { before.write("row \(y) " + String(repeating: "·", count: 100), x: 0, y: y, limit: 120, style: .plain) }
        before.write("Count: 41", x: 50, y: 20, limit: 20, style: CellStyle(foreground: .ansi(3), attributes: .bold))
        var after = before
        after.write("Count: 42", x: 50, y: 20, limit: 20, style: CellStyle(foreground: .ansi(3), attributes: .bold))
        let bytes = encoder.encode(from: before, to: after)
        XCTAssertEqual(visible(bytes), "⎋[21;59H⎋[1;33m2⎋[0m")
        XCTAssertLessThanOrEqual(bytes.count, 40)
    }

    func testApplyingEncodedDiffsReproducesFrames() {
        // A tiny terminal model checks that incremental output lands every glyph where it belongs.
        var frames: [Buffer] = []
        var a = Buffer(width: 12, height: 3)
        a.write("中文 abc 😀", x: 0, y: 0, limit: 12, style: .plain)
        a.write("x中y", x: 3, y: 1, limit: 12, style: .plain)
        frames.append(a)
        var b = a
        b.write("ab中", x: 1, y: 0, limit: 12, style: .plain)
        b.write("🇫🇷", x: 4, y: 1, limit: 12, style: .plain)
        b.write("end", x: 9, y: 2, limit: 3, style: .plain)
        frames.append(b)
        var c = b
        c.fill(Rect(x: 0, y: 0, width: 12, height: 1), style: .plain)
        c.write("z", x: 11, y: 0, limit: 1, style: .plain)
        frames.append(c)
        var screen = TerminalModel(width: 12, height: 3)
        var previous: Buffer?
        for frame in frames {
            screen.feed(encoder.encode(from: previous, to: frame))
            XCTAssertEqual(StyledFrame.text(of: screen.screen), StyledFrame.text(of: frame))
            previous = frame
        }
    }
}
