import HybridCells
import HybridDocument
import HybridJSON
import HybridWidgets
import TestSupport
import XCTest

/// Whole frames as a person sees them, styles included: each widget at rest and focused
/// (focus is reverse video, so it shows without colours too).
final class WidgetStyleTests: XCTestCase {
    /// Renders a body node as a styled frame, with the view keyed `focused` focused (its
    /// selected row and caret as given, as the runtime sets them when it takes focus).
    func styled(_ body: String, state: String = "{}", focused: String? = nil, selection: Int? = nil, caret: Int? = nil,
                width: Int = 20, height: Int = 1, file: StaticString = #filePath, line: UInt = #line) -> String {
        let text = #"{"format": 1, "id": "t", "state": \#(state), "body": \#(body)}"#
        let load = ScreenDocument.load(SourceText(name: "t.json", text: text))
        XCTAssertFalse(load.hasErrors, "\(load.formattedDiagnostics)", file: file, line: line)
        guard let document = load.value else { return "" }
        var interaction = Interaction()
        interaction.focused = focused
        if let focused {
            interaction.selection[focused] = selection
            interaction.caret[focused] = caret
        }
        let frame = ScreenRenderer(document: document).render(state: document.state, interaction: interaction, width: width, height: height)
        return StyledFrame.text(of: frame.buffer)
    }

    func testSpansKeepTheirStylesOverTheTextStyle() {
        XCTAssertEqual(StyledFrame.recorded("spans", styled(#"{"type": "text", "style": {"color": "blue"}, "spans": [{"text": "a", "style": {"bold": true}}, {"text": "b", "style": {"color": "red"}}, {"text": "c"}]}"#)), """
        |abc
        :abc
        a = bold fg:blue
        b = fg:red
        c = fg:blue
        """)
    }

    func testButtonAtRestAndFocused() {
        let button = #"{"type": "button", "id": "buy", "label": "Buy", "style": {"color": "green"}}"#
        XCTAssertEqual(StyledFrame.recorded("button", styled(button)), """
        |[ Buy ]
        :aaaaaaa
        a = fg:green
        """)
        XCTAssertEqual(StyledFrame.recorded("button-focused", styled(button, focused: "#buy")), """
        |[ Buy ]
        :aaaaaaa
        a = reverse fg:green
        """)
    }

    func testCheckboxSelectAndTabsShowFocus() {
        let controls = #"{"type": "column", "children": [{"type": "checkbox", "id": "gift", "label": "Gift", "checked": true}, {"type": "select", "id": "size", "options": ["S", "L"]}, {"type": "tabs", "id": "tabs", "tabs": [{"title": "A", "body": {"type": "text", "text": "a"}}, {"title": "B", "body": {"type": "text", "text": "b"}}]}]}"#
        XCTAssertEqual(StyledFrame.recorded("controls", styled(controls, width: 12, height: 5)), """
        |[x] Gift
        |[S ▾]
        |[A]  B
        :aaa
        |────────────
        :bbbbbbbbbbbb
        |a
        a = bold
        b = dim
        """)
        XCTAssertEqual(StyledFrame.recorded("controls-gift", styled(controls, focused: "#gift", width: 12, height: 5)), """
        |[x] Gift
        :aaaaaaaa
        |[S ▾]
        |[A]  B
        :bbb
        |────────────
        :cccccccccccc
        |a
        a = reverse
        b = bold
        c = dim
        """)
        XCTAssertEqual(StyledFrame.recorded("controls-tabs", styled(controls, focused: "#tabs", width: 12, height: 5)), """
        |[x] Gift
        |[S ▾]
        |[A]  B
        :aaa
        |────────────
        :bbbbbbbbbbbb
        |a
        a = bold reverse
        b = dim
        """)
    }

    func testInputShowsPlaceholderDimAndCaretReversed() {
        XCTAssertEqual(StyledFrame.recorded("input-placeholder", styled(#"{"type": "input", "id": "e", "placeholder": "email", "style": {"width": 10}}"#)), """
        |[email   ]
        : aaaaaaaa
        a = dim
        """)
        XCTAssertEqual(StyledFrame.recorded("input-focused", styled(#"{"type": "input", "id": "e", "value": "ab", "style": {"width": 10}}"#, focused: "#e", caret: 1)), """
        |[ab      ]
        :a b      a
        a = bold
        b = reverse
        """)
    }

    func testTheCaretNeverCoversTheOverflowMarker() {
        let input = #"{"type": "input", "id": "e", "value": "abcdefghij", "style": {"width": 8}}"#
        XCTAssertEqual(StyledFrame.recorded("input-caret-inside", styled(input, focused: "#e", caret: 7)), """
        |[defgh…]
        :a    b a
        a = bold
        b = reverse
        """, "text after the caret overflows: the caret stays left of the marker")
        XCTAssertEqual(StyledFrame.recorded("input-caret-end", styled(input, focused: "#e", caret: 10)), """
        |[fghij ]
        :a     ba
        a = bold
        b = reverse
        """)
    }

    func testFocusedListAndTableHighlightTheirSelection() {
        let list = #"{"type": "list", "id": "l", "items": ["Tea", "Cake"], "onSelect": "pick", "template": {"type": "text", "text": "@{item}"}}"#
        XCTAssertEqual(StyledFrame.recorded("list-focused", styled(list, focused: "#l", selection: 1, width: 6, height: 2)), """
        |Tea
        |Cake
        :aaaaaa
        a = reverse
        """)
        let table = #"{"type": "table", "id": "t", "onSelect": "pick", "columns": ["Item", {"title": "Qty", "align": "right"}], "rows": [["Tea", 2], ["Cake", 10]]}"#
        XCTAssertEqual(StyledFrame.recorded("table", styled(table, width: 10, height: 4)), """
        |Item  Qty
        :aaaa  aaa
        |─────────
        :bbbbbbbbb
        |Tea     2
        |Cake   10
        a = bold
        b = dim
        """)
        XCTAssertEqual(StyledFrame.recorded("table-focused", styled(table, focused: "#t", selection: 0, width: 10, height: 4)), """
        |Item  Qty
        :aaaa  aaa
        |─────────
        :bbbbbbbbb
        |Tea     2
        :ccccccccc
        |Cake   10
        a = bold
        b = dim
        c = reverse
        """, "the gaps between columns are part of the selected row")
    }

    func testBoxTitleProgressDividerAndErrorMarker() {
        XCTAssertEqual(StyledFrame.recorded("box", styled(##"{"type": "box", "title": "Hi", "style": {"border": "rounded", "borderColor": "cyan", "background": "#102030"}, "child": {"type": "text", "text": "x"}}"##, width: 8, height: 3)), """
        |╭ Hi ──╮
        :abbbbaaa
        |│x     │
        :acccccca
        |╰──────╯
        :aaaaaaaa
        a = fg:cyan bg:#102030
        b = bold fg:cyan bg:#102030
        c = bg:#102030
        """)
        XCTAssertEqual(StyledFrame.recorded("progress", styled(#"{"type": "row", "children": [{"type": "progress", "value": 0.5, "style": {"width": 10}}, {"type": "divider"}, {"type": "component", "name": "missing"}]}"#, width: 34)), """
        |███░░  50%│[!] unknown component …
        :   aa     abbbbbbbbbbbbbbbbbbbbbbb
        a = dim
        b = bold fg:red
        """)
    }
}
