import HybridCells
import HybridWidgets
import TestSupport
import XCTest

/// A textarea as a person sees it: its bar, wrapped lines, the placeholder, and the caret on
/// wide characters and at the end of a full line.
extension WidgetStyleTests {
    func testATextareaAtRestShowsItsBarAndPlaceholder() {
        XCTAssertEqual(StyledFrame.recorded("textarea-placeholder", styled(#"{"type": "textarea", "id": "t", "placeholder": "a note", "style": {"width": 10}}"#, height: 3)), """
        |│ a note
        :  aaaaaa
        |│
        |│
        a = dim
        """)
    }

    func testAFocusedTextareaWrapsAndReversesTheCaretCell() {
        let textarea = #"{"type": "textarea", "id": "t", "value": "漢字 and more\nend", "style": {"width": 10}}"#
        XCTAssertEqual(StyledFrame.recorded("textarea-focused", styled(textarea, focused: "#t", caret: 1, height: 4)), """
        |│ 漢字 and
        :aa  bb
        |│ more
        :aa
        |│ end
        :aa
        |
        a = bold
        b = reverse
        """, "the caret on the second wide character, both its cells")
        XCTAssertEqual(StyledFrame.recorded("textarea-caret-end", styled(#"{"type": "textarea", "id": "t", "value": "abcdefgh", "style": {"width": 10}}"#, focused: "#t", caret: 8, height: 3)), """
        |│ abcdefgh
        :aa
        |│
        :aab
        |│
        :aa
        a = bold
        b = reverse
        """, "after a full line the caret starts the next")
    }
}
