import HybridJSON
import HybridRuntime
import HybridTerminal
import XCTest

/// A textarea in a running app: pastes keep their line breaks (an input's become spaces),
/// every change runs `onChange` with the new value, ctrl+enter runs `onSubmit`, and screen
/// keys the textarea does not take still work while it has focus.
final class TextareaInteractionTests: XCTestCase {
    static let screen = AppHarness.screen(#"""
    {"type": "column", "children": [
      {"type": "textarea", "id": "t", "value": "@{text}", "onChange": {"action": "set", "path": "changes", "value": "@{changes + 1}"},
       "onSubmit": {"action": "set", "path": "submitted", "value": "@{text}"}, "style": {"width": 20}},
      {"type": "input", "id": "i", "value": "@{line}"}]}
    """#, state: #"{"text": "", "line": "", "changes": 0, "submitted": ""}"#,
    extra: #""keys": {"ctrl+s": {"action": "set", "path": "saved", "value": true}}"#)

    func testPastesChangesSubmitAndScreenKeys() throws {
        let harness = try AppHarness()
        _ = try harness.run(screen: Self.screen, keys: #""ab" enter"#)
        harness.app.handle(.paste("one\ntwo"))
        harness.app.handle(.key("ctrl+enter"))
        harness.app.handle(.key("ctrl+s"))
        let state = try XCTUnwrap(harness.app.currentScreen?.state)
        XCTAssertEqual(state["text"], .string("ab\none\ntwo"))
        XCTAssertEqual(state["changes"], .integer(4), "a, b, Enter and the paste each changed it")
        XCTAssertEqual(state["submitted"], .string("ab\none\ntwo"))
        XCTAssertEqual(state["saved"], .bool(true), "ctrl+s reaches the screen's keys from the textarea")
        harness.app.handle(.key("tab"))
        harness.app.handle(.paste("x\ny"))
        XCTAssertEqual(harness.app.currentScreen?.state["line"], .string("x y"), "an input takes one line")
        XCTAssertEqual(harness.problems, [])
    }
}
