import HybridCells
import HybridDocument
@testable import HybridWidgets
import TestSupport
import XCTest

/// Line breaking of styled runs, measured in terminal cells, below the widgets that use it.
final class TextLayoutTests: XCTestCase {
    /// The lines `text` (one unstyled run) breaks into, as plain strings.
    private func lines(_ text: String, width: Int, wrap: WrapMode) -> [String] {
        TextLayout.lines([TextRun(text: text, style: CellStyle())], width: width, wrap: wrap)
            .map { $0.runs.map(\.text).joined() }
    }

    func testWordWrap() {
        XCTAssertEqual(lines("hello world foo", width: 11, wrap: .word), ["hello world", "foo"])
        XCTAssertEqual(lines("hello world", width: 5, wrap: .word), ["hello", "world"])
        XCTAssertEqual(lines("short", width: 10, wrap: .word), ["short"])
        XCTAssertEqual(lines("a  b", width: 10, wrap: .word), ["a  b"], "inner spaces kept")
        XCTAssertEqual(lines("ab   cd", width: 4, wrap: .word), ["ab", "cd"], "spaces at a break dropped")
        XCTAssertEqual(lines("  ab cd", width: 5, wrap: .word), ["  ab", "cd"], "indentation kept")
    }

    func testWordWrapBreaksLongWords() {
        XCTAssertEqual(lines("abcdefghij", width: 4, wrap: .word), ["abcd", "efgh", "ij"])
        XCTAssertEqual(lines("a verylongword b", width: 5, wrap: .word), ["a", "veryl", "ongwo", "rd b"])
    }

    func testWordWrapMovesWideGlyphsWhole() {
        XCTAssertEqual(lines("中文 字符", width: 4, wrap: .word), ["中文", "字符"])
        XCTAssertEqual(lines("中文字", width: 5, wrap: .word), ["中文", "字"])
    }

    func testCharWrap() {
        XCTAssertEqual(lines("abcdef", width: 4, wrap: .char), ["abcd", "ef"])
        XCTAssertEqual(lines("中文字", width: 3, wrap: .char), ["中", "文", "字"])
        XCTAssertEqual(lines("a中b", width: 2, wrap: .char), ["a", "中", "b"])
        XCTAssertEqual(lines("e\u{301}e\u{301}e\u{301}", width: 2, wrap: .char), ["e\u{301}e\u{301}", "e\u{301}"],
                       "a grapheme cluster is never split")
    }

    func testALineNeverStartsWithClosingPunctuation() {
        XCTAssertEqual(lines("你好，世界。", width: 4, wrap: .char), ["你", "好，", "世", "界。"])
        XCTAssertEqual(lines("你好，世界。", width: 4, wrap: .word), ["你", "好，", "世", "界。"])
        XCTAssertEqual(lines("ab,cd", width: 2, wrap: .char), ["a", "b,", "cd"])
    }

    func testExplicitBreaksAndNone() {
        XCTAssertEqual(lines("ab\ncd", width: 10, wrap: .word), ["ab", "cd"])
        XCTAssertEqual(lines("ab\r\ncd", width: 10, wrap: .char), ["ab", "cd"])
        XCTAssertEqual(lines("ab\n\ncd", width: 1, wrap: .none), ["ab", "", "cd"])
        XCTAssertEqual(lines("a long line", width: 3, wrap: .none), ["a long line"])
        XCTAssertEqual(lines("", width: 5, wrap: .word), [""])
        XCTAssertEqual(lines("ab\n", width: 5, wrap: .word), ["ab", ""])
    }

    func testRunsKeepTheirStylesAcrossBreaks() {
        var bold = CellStyle()
        bold.attributes = .bold
        let laid = TextLayout.lines([TextRun(text: "ab ", style: CellStyle()), TextRun(text: "cd", style: bold)], width: 3, wrap: .word)
        XCTAssertEqual(laid.map { $0.runs.map(\.text) }, [["ab"], ["cd"]])
        XCTAssertEqual(laid.map(\.width), [2, 2])
        XCTAssertEqual(laid[1].runs[0].style, bold)
    }

    /// Keeping only the first lines, and stopping once they are made, changes none of them: over
    /// random styled texts of words, wide glyphs, punctuation and newlines, in every wrap mode,
    /// the first lines, the count and the widest width agree with breaking the whole text.
    func testKeepingTheFirstLinesAgreesWithBreakingTheWholeText() {
        // Each run's text, marked * when styled.
        func shown(_ lines: [TextLine]) -> [[String]] { lines.map { $0.runs.map { $0.text + ($0.style == CellStyle() ? "" : "*") } } }
        var random = SeededRandom(seed: 0x7E47)
        let pieces = ["a", "word", " ", "  ", "中", "文字", "，", ".", "\n", "é", "🎉", "x,", "longerword"]
        var bold = CellStyle()
        bold.attributes = .bold
        for round in 0..<400 {
            let runs = (0..<random.next(4) + 1).map { index in
                TextRun(text: (0..<random.next(30)).map { _ in pieces[random.next(pieces.count)] }.joined(), style: index % 2 == 0 ? CellStyle() : bold)
            }
            let width = random.next(12) + 1
            for wrap in [WrapMode.word, .char, .none] {
                let whole = TextLayout.layout(runs, width: width, wrap: wrap)
                XCTAssertTrue(whole.isWhole)
                XCTAssertEqual(whole.widest, whole.lines.map(\.width).max() ?? 0, "round \(round)")
                let keep = random.next(5)
                let counted = TextLayout.layout(runs, width: width, wrap: wrap, keep: keep)
                XCTAssertEqual(counted.count, whole.count, "round \(round)")
                XCTAssertEqual(counted.widest, whole.widest, "round \(round)")
                XCTAssertEqual(shown(counted.lines), shown(Array(whole.lines.prefix(keep))), "round \(round)")
                let first = TextLayout.layout(runs, width: width, wrap: wrap, keep: keep, countingAll: false)
                XCTAssertEqual(shown(first.lines), shown(Array(whole.lines.prefix(keep))), "round \(round)")
                XCTAssertEqual(first.lines.map(\.width), Array(whole.lines.prefix(keep)).map(\.width), "round \(round)")
            }
        }
    }
}
