import XCTest
import HybridCells

final class TextWrapTests: XCTestCase {
    func testWordWrap() {
        XCTAssertEqual(wrapLines("hello world foo", width: 11, mode: .word), ["hello world", "foo"])
        XCTAssertEqual(wrapLines("hello world", width: 5, mode: .word), ["hello", "world"])
        XCTAssertEqual(wrapLines("short", width: 10, mode: .word), ["short"])
        XCTAssertEqual(wrapLines("a  b", width: 10, mode: .word), ["a  b"], "inner spaces kept")
        XCTAssertEqual(wrapLines("ab   ", width: 10, mode: .word), ["ab"], "trailing spaces dropped")
        XCTAssertEqual(wrapLines("  ab cd", width: 5, mode: .word), ["  ab", "cd"], "indentation kept")
    }

    func testWordWrapBreaksLongWords() {
        XCTAssertEqual(wrapLines("abcdefghij", width: 4, mode: .word), ["abcd", "efgh", "ij"])
        XCTAssertEqual(wrapLines("a verylongword b", width: 5, mode: .word), ["a", "veryl", "ongwo", "rd b"])
    }

    func testWordWrapWideGlyphs() {
        XCTAssertEqual(wrapLines("中文 字符", width: 4, mode: .word), ["中文", "字符"])
        XCTAssertEqual(wrapLines("中文字", width: 5, mode: .word), ["中文", "字"])
    }

    func testCharWrap() {
        XCTAssertEqual(wrapLines("abcdef", width: 4, mode: .char), ["abcd", "ef"])
        XCTAssertEqual(wrapLines("中文字", width: 3, mode: .char), ["中", "文", "字"])
        XCTAssertEqual(wrapLines("a中b", width: 2, mode: .char), ["a", "中", "b"])
        XCTAssertEqual(wrapLines("中", width: 1, mode: .char), ["中"], "a glyph wider than the line gets its own line")
        XCTAssertEqual(wrapLines("e\u{301}e\u{301}e\u{301}", width: 2, mode: .char), ["e\u{301}e\u{301}", "e\u{301}"])
    }

    func testExplicitBreaksAndNone() {
        XCTAssertEqual(wrapLines("ab\ncd", width: 10, mode: .word), ["ab", "cd"])
        XCTAssertEqual(wrapLines("ab\r\ncd", width: 10, mode: .char), ["ab", "cd"])
        XCTAssertEqual(wrapLines("ab\n\ncd", width: 1, mode: .none), ["ab", "", "cd"])
        XCTAssertEqual(wrapLines("a long line", width: 3, mode: .none), ["a long line"])
        XCTAssertEqual(wrapLines("", width: 5, mode: .word), [""])
        XCTAssertEqual(wrapLines("ab\n", width: 5, mode: .word), ["ab", ""])
        XCTAssertEqual(wrapLines("abc", width: 0, mode: .word), [])
    }
}
