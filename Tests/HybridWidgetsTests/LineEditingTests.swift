@testable import HybridWidgets
import XCTest

/// The editing model of `input` and `textarea`: each key on text written with a `|` where the
/// caret is, at the edges (empty text, caret at either end), across lines, and over characters
/// wider than a byte or a cell (the caret moves by `Character`).
final class LineEditingTests: XCTestCase {
    /// `text` with its `|` taken out as the caret, after `keys`, written back with a `|`.
    func edited(_ text: String, _ keys: String..., file: StaticString = #filePath, line: UInt = #line) -> String {
        let caret = text.firstIndex(of: "|").map { text.distance(from: text.startIndex, to: $0) }
        var editing = LineEditing(text.replacingOccurrences(of: "|", with: ""), caret: caret)
        for key in keys {
            guard let command = LineEditing.command(forKey: key) else {
                XCTFail("\(key) is not an editing key", file: file, line: line)
                return ""
            }
            editing.perform(command)
        }
        var shown = editing.characters
        shown.insert("|", at: editing.caret)
        return String(shown)
    }

    func testTheKeysOfEachCommand() {
        let keys: [(String, LineEditing.Command)] = [
            ("left", .characterBack), ("right", .characterForward), ("home", .lineStart), ("ctrl+a", .lineStart),
            ("end", .lineEnd), ("ctrl+e", .lineEnd), ("alt+b", .wordBack), ("ctrl+left", .wordBack),
            ("alt+f", .wordForward), ("ctrl+right", .wordForward), ("backspace", .deleteBack), ("delete", .deleteForward),
            ("ctrl+w", .deleteWordBack), ("alt+backspace", .deleteWordBack), ("alt+d", .deleteWordForward),
            ("ctrl+u", .deleteToLineStart), ("ctrl+k", .deleteToLineEnd),
        ]
        for (key, command) in keys { XCTAssertEqual(LineEditing.command(forKey: key), command, key) }
        for key in ["enter", "tab", "a", "ctrl+s", "up", "esc"] { XCTAssertNil(LineEditing.command(forKey: key), key) }
    }

    func testCharactersAndLineEnds() {
        XCTAssertEqual(edited("ab|c", "left"), "a|bc")
        XCTAssertEqual(edited("|abc", "left"), "|abc")
        XCTAssertEqual(edited("abc|", "right"), "abc|")
        XCTAssertEqual(edited("ab|c", "ctrl+a"), "|abc")
        XCTAssertEqual(edited("a|bc", "ctrl+e"), "abc|")
        XCTAssertEqual(edited("|", "ctrl+a", "ctrl+e", "left", "right"), "|")
    }

    func testDeletingCharacters() {
        XCTAssertEqual(edited("ab|c", "backspace"), "a|c")
        XCTAssertEqual(edited("|abc", "backspace"), "|abc")
        XCTAssertEqual(edited("a|bc", "delete"), "a|c")
        XCTAssertEqual(edited("abc|", "delete"), "abc|")
        XCTAssertEqual(edited("|", "backspace", "delete"), "|")
    }

    /// Words are runs of letters and digits: punctuation and spaces between them are skipped.
    func testMovingByWords() {
        XCTAssertEqual(edited("foo-bar baz|", "alt+b"), "foo-bar |baz")
        XCTAssertEqual(edited("foo-bar |baz", "alt+b"), "foo-|bar baz")
        XCTAssertEqual(edited("foo-bar baz|  ", "alt+b", "alt+b", "alt+b", "alt+b"), "|foo-bar baz  ")
        XCTAssertEqual(edited("|  foo.bar x2", "alt+f"), "  foo|.bar x2")
        XCTAssertEqual(edited("  foo|.bar x2", "ctrl+right", "ctrl+right", "ctrl+right"), "  foo.bar x2|")
        XCTAssertEqual(edited("fo|o", "ctrl+left"), "|foo")
        XCTAssertEqual(edited("|", "alt+b", "alt+f"), "|")
        XCTAssertEqual(edited("...|", "alt+b"), "|...", "no word before: to the start")
    }

    func testKillingWordsAndToTheLineEdges() {
        XCTAssertEqual(edited("git commit -m|", "ctrl+w"), "git commit -|")
        XCTAssertEqual(edited("git commit -|", "ctrl+w"), "git |")
        XCTAssertEqual(edited("git com|mit", "ctrl+w"), "git |mit")
        XCTAssertEqual(edited("|git", "ctrl+w"), "|git")
        XCTAssertEqual(edited("git |commit now", "alt+d"), "git | now")
        XCTAssertEqual(edited("abc|", "alt+d"), "abc|")
        XCTAssertEqual(edited("abc|def", "ctrl+u"), "|def")
        XCTAssertEqual(edited("abc|def", "ctrl+k"), "abc|")
        XCTAssertEqual(edited("|abc", "ctrl+u"), "|abc")
        XCTAssertEqual(edited("abc|", "ctrl+k"), "abc|")
    }

    /// In a textarea the line commands act on the caret's line; only Backspace and Delete take
    /// a line break, while moving by words and characters crosses lines.
    func testLinesOfATextarea() {
        XCTAssertEqual(edited("one\ntw|o\nthree", "ctrl+a"), "one\n|two\nthree")
        XCTAssertEqual(edited("one\ntw|o\nthree", "ctrl+e"), "one\ntwo|\nthree")
        XCTAssertEqual(edited("one\ntw|o\nthree", "ctrl+u"), "one\n|o\nthree")
        XCTAssertEqual(edited("one\ntw|o\nthree", "ctrl+k"), "one\ntw|\nthree")
        XCTAssertEqual(edited("one\ntwo|\nthree", "ctrl+k"), "one\ntwo|\nthree")
        XCTAssertEqual(edited("one\n|two", "ctrl+w", "ctrl+u"), "one\n|two")
        XCTAssertEqual(edited("one|\ntwo", "alt+d"), "one|\ntwo")
        XCTAssertEqual(edited("one\n|two", "backspace"), "one|two")
        XCTAssertEqual(edited("one|\ntwo", "delete"), "one|two")
        XCTAssertEqual(edited("one\n|two", "alt+b"), "|one\ntwo")
        XCTAssertEqual(edited("one|\ntwo", "alt+f"), "one\ntwo|")
        XCTAssertEqual(edited("one\n|two", "left"), "one|\ntwo")
        XCTAssertEqual(edited("a\r\n|b", "left"), "a|\r\nb", "CR LF is one character")
        XCTAssertEqual(edited("a\r\nb|", "ctrl+a"), "a\r\n|b")
    }

    /// Accents, emoji with modifiers and flags are one character each; CJK letters are words.
    func testGraphemeClustersAndWideCharacters() {
        XCTAssertEqual(edited("cafe\u{301}|", "backspace"), "caf|")
        XCTAssertEqual(edited("a👍🏽|b", "backspace"), "a|b")
        XCTAssertEqual(edited("🇫🇷|🇩🇪", "left", "delete"), "|🇩🇪")
        XCTAssertEqual(edited("漢字 かな|", "alt+b"), "漢字 |かな")
        XCTAssertEqual(edited("漢字 かな|", "ctrl+w"), "漢字 |")
        XCTAssertEqual(edited("naïve café|", "alt+b", "alt+b"), "|naïve café")
        XCTAssertEqual(edited("ok 👍 go|", "alt+b", "alt+b"), "|ok 👍 go", "an emoji is no word")
    }

    func testInsertingAndMovingTheCaret() {
        var editing = LineEditing("ad", caret: 1)
        editing.insert("bc")
        XCTAssertEqual(editing.text, "abcd")
        XCTAssertEqual(editing.caret, 3)
        editing.moveCaret(to: 99)
        XCTAssertEqual(editing.caret, 4)
        editing.moveCaret(to: -1)
        XCTAssertEqual(editing.caret, 0)
        XCTAssertEqual(LineEditing("abc", caret: 7).caret, 3, "a caret past the text is kept at its end")
        XCTAssertEqual(LineEditing("abc").caret, 3, "no caret: after the text")
    }
}

/// The lines a textarea shows: wrapped after the last space that fits, else between
/// characters, wide characters whole; the caret's line and column, and Up/Down's targets.
final class SoftWrapTests: XCTestCase {
    func shown(_ text: String, width: Int) -> [String] {
        let characters = Array(text)
        return SoftWrap(characters, width: width).lines.map { String(characters[$0.range]) }
    }

    func testWrapsAtSpacesThenBetweenCharacters() {
        XCTAssertEqual(shown("hello brave new world", width: 10), ["hello ", "brave new ", "world"])
        XCTAssertEqual(shown("abcdefghij", width: 4), ["abcd", "efgh", "ij"])
        XCTAssertEqual(shown("one\n\ntwo", width: 10), ["one", "", "two"])
        XCTAssertEqual(shown("", width: 5), [""])
        XCTAssertEqual(shown("漢字かな", width: 5), ["漢字", "かな"], "wide characters are never split")
        XCTAssertEqual(shown("abcd", width: 4), ["abcd", ""], "a full last line leaves the caret a line of its own")
        XCTAssertEqual(shown("abcd\nx", width: 4), ["abcd", "x"])
        XCTAssertEqual(shown("ab", width: 0), ["a", "b", ""], "no room: a character a line")
    }

    func testTheCaretsLineAndColumn() {
        let lines = SoftWrap(Array("hello brave\nnew"), width: 8)
        XCTAssertEqual(lines.lines.count, 3)
        XCTAssertEqual([0, 5, 6, 11, 12, 15].map(lines.line(of:)), [0, 0, 1, 1, 2, 2],
                       "a caret at the end of a wrapped line shows at the start of the next")
        XCTAssertEqual([0, 6, 11, 15].map(lines.column(of:)), [0, 0, 5, 3])
        let wide = SoftWrap(Array("漢字x"), width: 10)
        XCTAssertEqual(wide.column(of: 2), 4)
    }

    func testUpAndDownKeepTheColumn() {
        let lines = SoftWrap(Array("a long line\nab\n漢字漢字"), width: 20)
        XCTAssertEqual(lines.caret(onLine: 1, column: 8), 14, "a shorter line: its end")
        XCTAssertEqual(lines.caret(onLine: 2, column: 3), 16, "never past the column: before the wide character it would split")
        XCTAssertEqual(lines.caret(onLine: 0, column: 4), 4)
        let wrapped = SoftWrap(Array("hello brave"), width: 8)
        XCTAssertEqual(wrapped.caret(onLine: 0, column: 7), 5, "not the end of a wrapped line, which is on the next")
    }

    func testTheFirstLineShownFollowsTheCaret() {
        let lines = SoftWrap(Array("1\n2\n3\n4\n5\n6"), width: 5)
        XCTAssertEqual(lines.firstShownLine(from: 0, showing: 0, height: 3), 0)
        XCTAssertEqual(lines.firstShownLine(from: 0, showing: 8, height: 3), 2, "down past the bottom: as little as it can")
        XCTAssertEqual(lines.firstShownLine(from: 2, showing: 6, height: 3), 2, "inside: unmoved")
        XCTAssertEqual(lines.firstShownLine(from: 3, showing: 2, height: 3), 1)
        XCTAssertEqual(lines.firstShownLine(from: 9, showing: 10, height: 3), 3, "never past the last lines")
    }
}
