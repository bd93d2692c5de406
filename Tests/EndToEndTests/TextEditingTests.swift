import Foundation
import TestSupport
import XCTest

/// Editing text through the real binary: the readline keys of `input` and `textarea` pressed
/// with `--keys` (the final frame is what a person sees), and the styled frames of the
/// `samples/editor.json` textareas focused (`run` in a pseudo-terminal, `Tests/pty/frame.py`);
/// at rest they are that sample's goldens (`SampleGoldenTests`).
final class TextEditingTests: XCTestCase {
    static let screen = "samples/editor.json"
    static let editor = #"""
    {"format": 1, "id": "editor", "state": {"line": "", "text": ""},
     "body": {"type": "column", "children": [
       {"type": "input", "id": "line", "value": "@{line}", "style": {"width": 30}},
       {"type": "textarea", "id": "text", "value": "@{text}", "style": {"width": 24}},
       {"type": "text", "text": "line=[@{line}]"}
     ]}}
    """#

    /// The rows of the final frame of `--keys keys` on the editor screen, trailing spaces cut.
    func finalFrame(_ keys: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let folder = try makeTemporaryDirectory("hybrid-editing")
        let screen = folder.appendingPathComponent("editor.json")
        try Self.editor.write(to: screen, atomically: true, encoding: .utf8)
        let result = try CommandRunner.hybrid(["run", screen.path, "--headless", "--size", "40x8", "--keys", keys], timeout: 60)
        XCTAssertEqual(result.status, 0, result.standardError, file: file, line: line)
        XCTAssertEqual(result.standardError, "", file: file, line: line)
        return result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    func testAnInputTypesMovesByWordsAndKills() throws {
        // Typed, then: the last word killed, a word back, "very " put before it, to the end.
        let rows = try finalFrame(#""tea is hot today" ctrl+w alt+b "very " ctrl+e "!""#)
        XCTAssertEqual(rows.last { $0.hasPrefix("line=") }, "line=[tea is very hot !]")
        // ctrl+left / ctrl+right, Home, End, Delete, ctrl+u and ctrl+k.
        let more = try finalFrame(#""one two three" ctrl+left ctrl+left ctrl+k home delete end "X" ctrl+a ctrl+right ctrl+u"#)
        XCTAssertEqual(more.last { $0.hasPrefix("line=") }, "line=[ X]")
        // Killed text is not kept: ctrl+y (yank) puts nothing back.
        let yank = try finalFrame(#""keep this" ctrl+w ctrl+y"#)
        XCTAssertEqual(yank.last { $0.hasPrefix("line=") }, "line=[keep ]")
    }

    func testATextareaTakesLinesAndTheSameKeys() throws {
        let rows = try finalFrame(#"tab "first line" enter "second line is long enough to wrap" up up ctrl+e " ok" down down ctrl+a alt+f ctrl+k"#)
        XCTAssertEqual(Array(rows.dropFirst().prefix(3)), ["│ first line ok", "│ second", "│"], rows.joined(separator: "\n"))
        // Moving by words crosses lines; killing a word does not take a line break.
        let words = try finalFrame(#"tab "alpha beta" enter "gamma delta" ctrl+left ctrl+left ctrl+left ctrl+w "X" alt+d"#)
        XCTAssertEqual(Array(words.dropFirst().prefix(3)), ["│ X", "│ gamma delta", "│"], words.joined(separator: "\n"))
    }

    /// A textarea taller than its field scrolls to keep the caret's line in sight.
    func testATextareaScrollsToTheCaret() throws {
        let rows = try finalFrame(#"tab "1" enter "2" enter "3" enter "4" enter "5""#)
        XCTAssertEqual(Array(rows.dropFirst().prefix(5)), ["│ 1", "│ 2", "│ 3", "│ 4", "│ 5"], "as tall as its lines: \(rows)")
        let capped = try finalFrame(#"tab "1" enter "2" enter "3" enter "4" enter "5" enter "6" enter "7" enter "8" enter "9""#)
        XCTAssertEqual(Array(capped.dropFirst()), ["│ 3", "│ 4", "│ 5", "│ 6", "│ 7", "│ 8", "│ 9", ""],
                       "capped by the screen, scrolled to the caret: \(capped)")
        let back = try finalFrame(#"tab "1" enter "2" enter "3" enter "4" enter "5" enter "6" enter "7" enter "8" enter "9" pageup up up"#)
        XCTAssertEqual(back.dropFirst().first, "│ 1", "up past the top line shown scrolls back: \(back)")
    }

    /// The notes sample's edit screen: the body typed on two lines in its textarea, saved with
    /// ctrl+enter (its `onSubmit`), shown on two lines by the detail screen; edited again there.
    func testTheNotesSampleEditsABodyOfSeveralLines() throws {
        let data = try TemporaryDirectory("hybrid-notes-textarea")
        let run = { (keys: String) in
            try CommandRunner.hybrid(["run", "samples/notes", "--headless", "--size", "60x10", "--keys", keys],
                                     environment: ["XDG_DATA_HOME": data.path], timeout: 60)
        }
        let saved = try run(#"ctrl+n "Matcha" tab "Whisk, do not stir." enter "Drink at once." ctrl+enter tab enter"#)
        XCTAssertEqual(saved.status, 0, saved.standardError)
        let shown = saved.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Array(shown.prefix(3)), ["╭ Matcha ────────────────────────────────────────────────╮",
                                                "│ Whisk, do not stir.                                    │",
                                                "│ Drink at once.                                         │"], saved.standardOutput)
        let edited = try run(#"tab enter e tab up ctrl+e " Slowly." ctrl+s tab enter"#)
        XCTAssertEqual(edited.status, 0, edited.standardError)
        XCTAssertTrue(edited.standardOutput.contains("│ Whisk, do not stir. Slowly."), edited.standardOutput)
    }

    /// `hybrid validate` knows a textarea's fields and names a misspelt one with a did-you-mean.
    func testValidateKnowsTheTextareasFields() throws {
        let folder = try makeTemporaryDirectory("hybrid-textarea-validate")
        let screen = folder.appendingPathComponent("bad.json")
        try #"{"format": 1, "id": "bad", "body": {"type": "textarea", "placholder": "x", "secure": true}}"#
            .write(to: screen, atomically: true, encoding: .utf8)
        let result = try CommandRunner.hybrid(["validate", screen.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.standardError.contains(#"$.body.placholder: unknown field "placholder""#), result.standardError)
        XCTAssertTrue(result.standardError.contains(#"did you mean "placeholder"?"#), result.standardError)
        XCTAssertTrue(result.standardError.contains(#"$.body.secure: unknown field "secure""#), result.standardError)
    }

    /// Focused, in a real terminal: the bar bold, the caret a reversed cell, moved by ctrl+left
    /// (CSI 1;5D) after a word killed with ctrl+w; a bordered one focused by Tab shows its
    /// placeholder and a bold border.
    func testAFocusedTextareaInATerminalGolden() throws {
        let focused = try terminalFrame(keys: ["\u{17}", "\u{1B}[1;5D"])
        try CommandRunner.assertGolden(focused, CommandRunner.repository.appendingPathComponent("Tests/EndToEndTests/Goldens/textarea-focused.styled.txt"))
        let bordered = try terminalFrame(keys: ["\t"])
        try CommandRunner.assertGolden(bordered, CommandRunner.repository.appendingPathComponent("Tests/EndToEndTests/Goldens/textarea-bordered.styled.txt"))
    }

    /// The screen of `hybrid run` on the textareas screen in a pseudo-terminal after `keys`
    /// (the bytes a terminal sends), replayed on a terminal model.
    func terminalFrame(keys: [String]) throws -> String {
        let folder = try makeTemporaryDirectory("hybrid-pty-frame")
        let (output, errors) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
        let keysJSON = String(decoding: try JSONSerialization.data(withJSONObject: keys), as: UTF8.self)
        let process = try CommandRunner.start(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                              ["python3", "Tests/pty/frame.py", CommandRunner.productsFolder.appendingPathComponent("hybrid").path,
                                               Self.screen, "50", "14", keysJSON, "--repo", CommandRunner.repository.path],
                                              in: CommandRunner.repository,
                                              environment: ["COLORTERM": "truecolor", "NO_COLOR": "", "PYTHONDONTWRITEBYTECODE": "1"],
                                              output: output, errors: errors)
        process.waitUntilExit()
        let bytes = try Data(contentsOf: output)
        XCTAssertEqual(process.terminationStatus, 0, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
        var terminal = TerminalModel(width: 50, height: 14)
        terminal.feed(Array(bytes))
        return StyledFrame.text(of: terminal.screen) + "\n"
    }
}
