import HybridCells
import HybridDocument
import HybridJSON
import HybridWidgets
import TestSupport
import XCTest

/// `keyhelp` and the `help` of actions, as a person sees them: the focused widget's own keys
/// first (what its `handleKey` answers), Tab when focus can move, then the screen's bindings
/// that have help; dim keys, plain words, cut with "…" to the width.
final class KeyhelpTests: XCTestCase {
    /// A screen with a search input, a list and a button above a `keyhelp`.
    static let screen = #"""
    {"format": 1, "id": "t",
     "keys": {"ctrl+n": {"action": "quit", "help": "new note"}, "esc": {"action": "back", "help": "quit"}, "ctrl+r": "refresh",
              "enter": {"action": "quit", "help": "confirm"}},
     "body": {"type": "column", "children": [
       {"type": "input", "id": "search", "onSubmit": {"action": "quit", "help": "search"}},
       {"type": "list", "id": "notes", "items": ["a", "b"], "onSelect": {"action": "quit", "help": "open"}, "template": {"type": "text", "text": "@{item}"}},
       {"type": "button", "id": "save", "label": "Save", "onPress": "save"},
       {"type": "keyhelp"}]}}
    """#

    /// The bottom row of `screen` drawn `width` wide with `focused` focused.
    func footer(_ screen: String = screen, focused: String?, width: Int = 80, height: Int = 5) throws -> String {
        let load = ScreenDocument.load(SourceText(name: "t.json", text: screen))
        XCTAssertFalse(load.hasErrors, "\(load.formattedDiagnostics)")
        let document = try XCTUnwrap(load.value)
        var interaction = Interaction()
        interaction.focused = focused
        let frame = ScreenRenderer(document: document).render(state: document.state, interaction: interaction, width: width, height: height)
        var last = Buffer(width: width, height: 1)
        for x in 0..<width { last[x, 0] = frame.buffer[x, height - 1] }
        return StyledFrame.text(of: last)
    }

    func testTheFocusedWidgetsKeysComeFirstThenTheScreensWithHelp() throws {
        XCTAssertEqual(StyledFrame.recorded("keyhelp-input", try footer(focused: "#search")), """
        |enter search · tab next · ctrl+n new note · esc quit
        :aaaaa       aaaaaa     aaaaaaaaa         aaaaaa
        a = dim
        """)
        XCTAssertEqual(StyledFrame.recorded("keyhelp-list", try footer(focused: "#notes")), """
        |↑/↓ move · enter open · tab next · ctrl+n new note · esc quit
        :aaa     aaaaaaaa     aaaaaa     aaaaaaaaa         aaaaaa
        a = dim
        """)
        // A handler named as a string has no help: the button's Enter says what it does.
        XCTAssertEqual(try footer(focused: "#save").split(separator: "\n").first, "|enter press · tab next · ctrl+n new note · esc quit")
        // Nothing focused: the screen's keys alone, its Enter too (a focused widget takes Enter first).
        XCTAssertEqual(try footer(focused: nil).split(separator: "\n").first, "|tab next · ctrl+n new note · esc quit · enter confirm")
    }

    func testALineTooLongIsCutWithAnEllipsisNeverWrapped() throws {
        XCTAssertEqual(StyledFrame.recorded("keyhelp-cut", try footer(focused: "#notes", width: 30)), """
        |↑/↓ move · enter open · tab n…
        :aaa     aaaaaaaa     aaaaaa  a
        a = dim
        """)
    }

    func testItTakesTheStyleOfItsNode() throws {
        let screen = #"{"format": 1, "id": "t", "keys": {"q": {"action": "quit", "help": "quit"}}, "body": {"type": "keyhelp", "style": {"color": "cyan"}}}"#
        XCTAssertEqual(try footer(screen, focused: nil, width: 10, height: 1), """
        |q quit
        :abbbbb
        a = dim fg:cyan
        b = fg:cyan
        """)
    }

    func testHelpIsAStringOnAnyActionObject() {
        let good = ScreenDocument.load(SourceText(name: "t.json", text: #"{"format": 1, "id": "t", "keys": {"x": {"action": "set", "path": "a", "value": 1, "help": "set a"}}, "body": {"type": "button", "label": "B", "onPress": {"action": "back", "help": "go back"}}}"#))
        XCTAssertEqual(good.diagnostics.count, 0, "\(good.formattedDiagnostics)")
        XCTAssertEqual(good.value?.keys.first?.action.help, "set a")
        let bad = ScreenDocument.load(SourceText(name: "t.json", text: #"{"format": 1, "id": "t", "keys": {"x": {"action": "quit", "help": 3}}, "body": {"type": "keyhelp"}}"#))
        XCTAssertEqual(bad.formattedDiagnostics, ["t.json:1:67: $.keys.x.help: expected a string, got a number"])
    }

    /// A sequence is an array, not an object; its help is the first one its action objects carry.
    func testASequenceTakesTheFirstHelpOfItsActions() {
        let load = ScreenDocument.load(SourceText(name: "t.json", text: #"{"format": 1, "id": "t", "keys": {"ctrl+s": [{"action": "set", "path": "a", "value": 1}, {"action": "set", "path": "b", "value": 2, "help": "submit"}, {"action": "back", "help": "later"}], "ctrl+x": [{"action": "quit"}]}, "body": {"type": "keyhelp"}}"#))
        XCTAssertEqual(load.diagnostics.count, 0, "\(load.formattedDiagnostics)")
        let keys = load.value?.keys ?? []
        XCTAssertEqual(keys.first { $0.key == "ctrl+s" }?.action.help, "submit")
        XCTAssertNil(keys.first { $0.key == "ctrl+x" }?.action.help)
    }
}
