import XCTest
@testable import HybridCells

final class DisplayWidthTests: XCTestCase {
    func testASCII() {
        XCTAssertEqual(DisplayWidth.of("hello"), 5)
        XCTAssertEqual(DisplayWidth.of(""), 0)
        XCTAssertEqual(DisplayWidth.of("a\tb\n"), 2, "controls take no column")
        XCTAssertEqual(DisplayWidth.of("\u{1B}"), 0)
        XCTAssertEqual(DisplayWidth.of(Character("x")), 1)
    }

    func testEastAsianWide() {
        XCTAssertEqual(DisplayWidth.of("中文"), 4)
        XCTAssertEqual(DisplayWidth.of("a中b"), 4)
        XCTAssertEqual(DisplayWidth.of("한국어"), 6, "precomposed Hangul")
        XCTAssertEqual(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}"), 2, "conjoining jamo form one wide cluster")
        XCTAssertEqual(DisplayWidth.of("カタカナ"), 8)
        XCTAssertEqual(DisplayWidth.of("ｶﾀｶﾅ"), 4, "halfwidth katakana is narrow")
        XCTAssertEqual(DisplayWidth.of("ＡＢ"), 4, "fullwidth forms")
        XCTAssertEqual(DisplayWidth.of("\u{3000}"), 2, "ideographic space")
        XCTAssertEqual(DisplayWidth.of("\u{20000}"), 2, "CJK extension B")
        XCTAssertEqual(DisplayWidth.of("\u{31350}"), 2, "CJK extension H (Unicode 15)")
    }

    func testEmoji() {
        XCTAssertEqual(DisplayWidth.of("😀"), 2)
        XCTAssertEqual(DisplayWidth.of("👍🏽"), 2, "modifier sequence")
        XCTAssertEqual(DisplayWidth.of("👨‍👩‍👧‍👦"), 2, "ZWJ family")
        XCTAssertEqual(DisplayWidth.of("🧑‍💻"), 2, "ZWJ profession")
        XCTAssertEqual(DisplayWidth.of("🏳️‍🌈"), 2, "flag ZWJ sequence")
        XCTAssertEqual(DisplayWidth.of("🇫🇷"), 2, "regional indicator pair")
        XCTAssertEqual(DisplayWidth.of("🇫🇷🇯🇵"), 4)
        XCTAssertEqual(DisplayWidth.of("❤"), 1, "text presentation by default")
        XCTAssertEqual(DisplayWidth.of("❤️"), 2, "VS16 requests emoji presentation")
        XCTAssertEqual(DisplayWidth.of("1️⃣"), 2, "keycap")
        XCTAssertEqual(DisplayWidth.of("🫨"), 2, "Unicode 15 emoji")
    }

    func testCombiningAndZeroWidth() {
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("Ame\u{301}lie"), 6)
        XCTAssertEqual(DisplayWidth.of("\u{301}"), 0, "a lone combining mark")
        XCTAssertEqual(DisplayWidth.of("a\u{200B}b"), 2, "zero width space")
        XCTAssertEqual(DisplayWidth.of("\u{FEFF}"), 0)
        XCTAssertEqual(DisplayWidth.of("\u{0915}\u{094D}\u{0937}"), 1, "Devanagari conjunct cluster")
        XCTAssertEqual(DisplayWidth.of("\u{AD}"), 1, "soft hyphen is drawn by terminals")
        XCTAssertEqual(DisplayWidth.of(Unicode.Scalar(0x85)!), 0, "C1 control")
    }

    func testSymbolWidthFlagsControls() {
        XCTAssertEqual(DisplayWidth.ofSymbol("a"), 1)
        XCTAssertEqual(DisplayWidth.ofSymbol("中"), 2)
        XCTAssertEqual(DisplayWidth.ofSymbol(""), 0)
        XCTAssertEqual(DisplayWidth.ofSymbol("\u{1B}"), -1)
        XCTAssertEqual(DisplayWidth.ofSymbol("a\u{1B}[2J"), -1)
        XCTAssertEqual(DisplayWidth.ofSymbol("\u{9B}"), -1, "C1 CSI")
    }
}
