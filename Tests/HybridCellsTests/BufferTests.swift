import TestSupport
import XCTest
@testable import HybridCells

final class BufferTests: XCTestCase {
    private func symbols(_ buffer: Buffer, row: Int = 0) -> [String] {
        (0..<buffer.width).map { buffer[$0, row].symbol }
    }

    func testNewBufferIsBlank() {
        let buffer = Buffer(width: 3, height: 2)
        XCTAssertEqual(buffer.cells.count, 6)
        XCTAssertTrue(buffer.cells.allSatisfy { $0 == .blank })
        XCTAssertEqual(buffer.plainLines(), ["", ""])
        XCTAssertEqual(Buffer(width: -1, height: 2).cells.count, 0)
    }

    func testSubscriptOutOfRangeIsHarmless() {
        var buffer = Buffer(width: 2, height: 2)
        buffer[5, 5] = Cell(symbol: "x")
        buffer[-1, 0] = Cell(symbol: "x")
        XCTAssertEqual(buffer[5, 5], .blank)
        XCTAssertEqual(buffer, Buffer(width: 2, height: 2))
        buffer[1, 1].style.attributes = .bold
        XCTAssertEqual(buffer[1, 1].style, CellStyle(attributes: .bold))
    }

    func testWriteClipsToLimitAndBuffer() {
        var buffer = Buffer(width: 6, height: 1)
        XCTAssertEqual(buffer.write("hello world", x: 1, y: 0, limit: 3, style: .plain), 3)
        XCTAssertEqual(buffer.plainLines(), [" hel"])
        XCTAssertEqual(buffer.write("abcdefgh", x: 3, y: 0, limit: 100, style: .plain), 3)
        XCTAssertEqual(buffer.plainLines(), [" heabc"])
        XCTAssertEqual(buffer.write("x", x: 0, y: 1, limit: 5, style: .plain), 0, "row outside")
        XCTAssertEqual(buffer.write("x", x: 6, y: 0, limit: 5, style: .plain), 0, "column outside")
        XCTAssertEqual(buffer.write("x", x: 0, y: 0, limit: 0, style: .plain), 0)
    }

    func testWideGlyphAtLimitIsNotSplit() {
        var buffer = Buffer(width: 5, height: 1)
        buffer.fill(buffer.area, symbol: ".", style: .plain)
        XCTAssertEqual(buffer.write("ab中", x: 0, y: 0, limit: 3, style: .plain), 2)
        XCTAssertEqual(symbols(buffer), ["a", "b", ".", ".", "."], "the half-fitting glyph leaves its column as is")
        XCTAssertEqual(buffer.write("ab中", x: 0, y: 0, limit: 4, style: .plain), 4)
        XCTAssertEqual(symbols(buffer), ["a", "b", "中", "", "."])
        XCTAssertTrue(buffer[3, 0].isContinuation)
    }

    func testWideGlyphAtBufferEdgeIsNotSplit() {
        var buffer = Buffer(width: 4, height: 1)
        XCTAssertEqual(buffer.write("abc中", x: 0, y: 0, limit: 10, style: .plain), 3)
        XCTAssertEqual(symbols(buffer), ["a", "b", "c", " "])
    }

    func testOverwritingHalfAWideGlyphBlanksTheOtherHalf() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.write("中", x: 1, y: 0, limit: 4, style: .plain)
        XCTAssertEqual(symbols(buffer), [" ", "中", "", " "])
        buffer.write("x", x: 2, y: 0, limit: 1, style: .plain)
        XCTAssertEqual(symbols(buffer), [" ", " ", "x", " "])
        buffer.write("中", x: 1, y: 0, limit: 4, style: .plain)
        buffer.write("y", x: 1, y: 0, limit: 1, style: .plain)
        XCTAssertEqual(symbols(buffer), [" ", "y", " ", " "])
    }

    func testWriteWithNegativeX() {
        var buffer = Buffer(width: 4, height: 1)
        XCTAssertEqual(buffer.write("中ab", x: -1, y: 0, limit: 5, style: .plain), 4)
        XCTAssertEqual(symbols(buffer), [" ", "a", "b", " "])
        XCTAssertEqual(buffer.write("xyz", x: -2, y: 0, limit: 5, style: .plain), 3)
        XCTAssertEqual(symbols(buffer), ["z", "a", "b", " "])
    }

    func testWriteDropsControlsAndPatchesStyle() {
        var buffer = Buffer(width: 8, height: 1)
        buffer.fill(buffer.area, style: CellStyle(background: .ansi(4)))
        buffer.write("a\u{1B}[2Jb\tc", x: 0, y: 0, limit: 8, style: CellStyle(foreground: .ansi(1), attributes: .bold))
        XCTAssertEqual(buffer.plainLines(), ["a[2Jb c"])
        XCTAssertEqual(buffer[0, 0].style, CellStyle(foreground: .ansi(1), background: .ansi(4), attributes: .bold))
        XCTAssertEqual(buffer[7, 0].style, CellStyle(background: .ansi(4)))
    }

    func testWriteCombiningAndEmoji() {
        var buffer = Buffer(width: 8, height: 1)
        XCTAssertEqual(buffer.write("e\u{301}👨‍👩‍👧🇫🇷", x: 0, y: 0, limit: 8, style: .plain), 5)
        XCTAssertEqual(symbols(buffer), ["e\u{301}", "👨‍👩‍👧", "", "🇫🇷", "", " ", " ", " "])
        XCTAssertEqual(buffer.plainLines(), ["e\u{301}👨‍👩‍👧🇫🇷"])
    }

    /// Writing a glyph repeated is writing the repeated text, cell for cell: narrow and wide
    /// glyphs, a tab and a control, clipped on either side, over half of a wide glyph.
    func testWriteRepeatingIsWritingTheRepeatedText() {
        let red = CellStyle(foreground: .ansi(1))
        for glyph: Character in ["─", "漢", "\t", "\u{7}", "e\u{301}"] {
            for (x, count, limit) in [(0, 4, 10), (-1, 4, 10), (-3, 2, 10), (6, 5, 10), (1, 6, 3), (2, 0, 5)] {
                var underlay = Buffer(width: 8, height: 1)
                underlay.write("ab漢cd漢", x: 0, y: 0, limit: 8, style: CellStyle(background: .ansi(4)))
                var repeated = underlay, written = underlay
                let used = repeated.write(repeating: glyph, count: count, x: x, y: 0, limit: limit, style: red)
                let expected = written.write(String(repeating: String(glyph), count: count), x: x, y: 0, limit: limit, style: red)
                XCTAssertEqual(repeated, written, "\(glyph.debugDescription) × \(count) at \(x), limit \(limit)")
                XCTAssertEqual(used, expected, "\(glyph.debugDescription) × \(count) at \(x), limit \(limit)")
            }
        }
    }

    /// A cell keeps its symbol's byte and columns as every way of writing sets the symbol:
    /// they are what the encoder draws by and what tells two cells apart, so they must be
    /// exactly what the symbol says (`DisplayWidth.printableASCIIByte`, `ofSymbol`).
    func testEveryWriteKeepsTheSymbolsByteAndColumns() {
        let texts = ["abc", "a\tb", "漢字", "e\u{301}x", "🚀 ok", "\u{7}\u{1B}z", "👩‍👩‍👧", "─│╭", "", " ", "\u{301}",
                     String(repeating: "wide", count: 40)]
        let glyphs: [Character] = ["─", "漢", "\t", "\u{7}", "e\u{301}", "x", " "]
        var generator = SeededRandom(seed: 28)
        var buffer = Buffer(width: 9, height: 2)
        func check(_ step: String) {
            for (index, cell) in buffer.cells.enumerated() {
                XCTAssertEqual(cell.asciiByte, DisplayWidth.printableASCIIByte(of: cell.symbol) ?? 0, "\(step), cell \(index)")
                let width = DisplayWidth.ofSymbol(cell.symbol)
                XCTAssertEqual(Int(cell.columns), (0...2).contains(width) ? width : -1, "\(step), cell \(index)")
            }
        }
        for step in 0..<3000 {
            let x = generator.next(12) - 2, y = generator.next(2), limit = generator.next(10)
            switch generator.next(5) {
            case 0: buffer.write(texts[generator.next(texts.count)], x: x, y: y, limit: limit, style: .plain)
            case 1: buffer.write(repeating: glyphs[generator.next(glyphs.count)], count: generator.next(6), x: x, y: y, limit: limit, style: .plain)
            case 2: buffer.fill(Rect(x: x, y: y, width: generator.next(5), height: 1), symbol: glyphs[generator.next(glyphs.count)], style: .plain)
            case 3: buffer[max(0, x), y].symbol = texts[generator.next(texts.count)]
            default: buffer[max(0, x), y] = Cell(symbol: texts[generator.next(texts.count)])
            }
            check("step \(step)")
        }
        XCTAssertEqual(Cell(symbol: "a"), Cell(symbol: "a"))
        XCTAssertNotEqual(Cell(symbol: "a"), Cell(symbol: "b"))
        XCTAssertNotEqual(Cell(symbol: "漢"), Cell(symbol: "字"))
        XCTAssertNotEqual(Cell(symbol: "a"), Cell(symbol: "a", style: CellStyle(foreground: .ansi(1))))
        // More than a glyph (a symbol set by hand): drawn as a blank, as before, not a trap.
        XCTAssertEqual(Cell(symbol: String(repeating: "x", count: 200)).columns, -1)
    }

    func testFillAndApplyStyle() {
        var buffer = Buffer(width: 5, height: 2)
        buffer.fill(Rect(x: 0, y: 0, width: 5, height: 1), symbol: "中", style: .plain)
        XCTAssertEqual(symbols(buffer), ["中", "", "中", "", " "], "odd last column is padded")
        buffer.fill(Rect(x: 1, y: 0, width: 1, height: 1), symbol: "x", style: .plain)
        XCTAssertEqual(symbols(buffer), [" ", "x", "中", "", " "])
        buffer.fill(Rect(x: -3, y: 1, width: 100, height: 7), symbol: "-", style: .plain)
        XCTAssertEqual(buffer.plainLines(), [" x中", "-----"])
        buffer.applyStyle(CellStyle(attributes: .reverse), to: Rect(x: 1, y: 1, width: 2, height: 5))
        XCTAssertEqual(buffer[1, 1].style.attributes, .reverse)
        XCTAssertEqual(buffer[3, 1].style, .plain)
        XCTAssertEqual(buffer[1, 1].symbol, "-")
    }

    func testPlainLines() {
        var buffer = Buffer(width: 8, height: 3)
        buffer.write("中文 ok", x: 0, y: 0, limit: 8, style: .plain)
        buffer.write("x", x: 3, y: 2, limit: 8, style: .plain)
        XCTAssertEqual(buffer.plainLines(), ["中文 ok", "", "   x"])
    }

    func testRect() {
        let r = Rect(x: 2, y: 3, width: 10, height: 4)
        XCTAssertEqual(r.maxX, 12)
        XCTAssertEqual(r.maxY, 7)
        XCTAssertFalse(r.isEmpty)
        XCTAssertTrue(Rect(x: 0, y: 0, width: 0, height: 3).isEmpty)
        XCTAssertEqual(r.intersection(Rect(x: 0, y: 0, width: 5, height: 5)), Rect(x: 2, y: 3, width: 3, height: 2))
        XCTAssertTrue(r.intersection(Rect(x: 20, y: 0, width: 5, height: 5)).isEmpty)
        XCTAssertEqual(r.inset(top: 1, right: 2, bottom: 1, left: 1), Rect(x: 3, y: 4, width: 7, height: 2))
        XCTAssertEqual(r.inset(by: 3), Rect(x: 5, y: 6, width: 4, height: 0))
        XCTAssertTrue(r.contains(x: 2, y: 3))
        XCTAssertFalse(r.contains(x: 12, y: 3))
    }

    func testColorNames() {
        XCTAssertEqual(Color(name: "red"), .ansi(1))
        XCTAssertEqual(Color(name: "white"), .ansi(7))
        XCTAssertEqual(Color(name: "brightBlack"), .ansi(8))
        XCTAssertEqual(Color(name: "brightWhite"), .ansi(15))
        XCTAssertEqual(Color(name: "bright-red"), .ansi(9))
        XCTAssertEqual(Color(name: "BRIGHT_CYAN"), .ansi(14))
        XCTAssertEqual(Color(name: "gray"), .ansi(8))
        XCTAssertEqual(Color(name: "Grey"), .ansi(8))
        XCTAssertNil(Color(name: "purple"))
        XCTAssertNil(Color(name: "#ff0000"))
        XCTAssertEqual(Color.ansiNames.compactMap { Color(name: $0) }, (0..<16).map { Color.ansi(UInt8($0)) })
        XCTAssertEqual(Color.ansi(9).name, "brightRed")
        XCTAssertEqual(Color(hex: "#ff8000"), .rgb(255, 128, 0))
        XCTAssertEqual(Color(hex: "#ABC"), .rgb(0xAA, 0xBB, 0xCC))
        XCTAssertNil(Color(hex: "#ff80"))
        XCTAssertNil(Color(hex: "#gg0000"))
    }

    func testStylePatch() {
        let base = CellStyle(foreground: .ansi(1), background: .ansi(4), attributes: .bold)
        let top = CellStyle(foreground: .rgb(1, 2, 3), attributes: .underline)
        XCTAssertEqual(base.patched(with: top), CellStyle(foreground: .rgb(1, 2, 3), background: .ansi(4), attributes: [.bold, .underline]))
        XCTAssertEqual(base.patched(with: .plain), base)
        XCTAssertTrue(CellStyle.plain.isPlain)
    }
}
