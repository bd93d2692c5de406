import HybridCells
import HybridDocument
import HybridJSON
import HybridWidgets
import XCTest

final class WidgetRenderingTests: XCTestCase {
    /// Renders a body node (JSON text) on its own screen and returns the plain rows.
    func render(_ body: String, state: String = "{}", components: String = "{}", width: Int = 20, height: Int = 4,
                file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let text = #"{"format": 1, "id": "t", "state": \#(state), "components": \#(components), "body": \#(body)}"#
        let load = ScreenDocument.load(SourceText(name: "t.json", text: text))
        XCTAssertEqual(load.formattedDiagnostics, [], file: file, line: line)
        guard let document = load.value else { return [] }
        let frame = ScreenRenderer(document: document).render(state: document.state, width: width, height: height)
        return frame.buffer.plainLines()
    }

    func testTextWrapsByWordByCharOrNotAtAll() {
        XCTAssertEqual(render(#"{"type": "text", "text": "the quick brown fox"}"#, width: 10),
                       ["the quick", "brown fox", "", ""])
        XCTAssertEqual(render(#"{"type": "text", "text": "abcdefghijkl", "style": {"wrap": "char"}}"#, width: 5),
                       ["abcde", "fghij", "kl", ""])
        XCTAssertEqual(render(#"{"type": "text", "text": "abcdefghijkl", "style": {"wrap": "none"}}"#, width: 5),
                       ["abcde", "", "", ""])
    }

    func testWideGlyphsAreNeverSplit() {
        // 漢字 take two cells each: in 5 columns the third cannot be half drawn.
        XCTAssertEqual(render(#"{"type": "text", "text": "漢字テスト", "style": {"wrap": "char"}}"#, width: 5),
                       ["漢字", "テス", "ト", ""])
        XCTAssertEqual(render(#"{"type": "text", "text": "ab🚀cd", "style": {"wrap": "none"}}"#, width: 3), ["ab", "", "", ""])
    }

    func testTextAlignment() {
        XCTAssertEqual(render(#"{"type": "column", "children": [ {"type": "text", "text": "ab", "style": {"textAlign": "center"}}, {"type": "text", "text": "ab", "style": {"textAlign": "right"}}]}"#, width: 6, height: 2),
                       ["  ab", "    ab"])
    }

    func testSpansKeepTheirStyles() {
        let text = #"{"format": 1, "id": "t", "body": {"type": "text", "spans": [{"text": "a", "style": {"bold": true}}, {"text": "b", "style": {"color": "red"}}]}}"#
        let document = ScreenDocument.load(SourceText(name: "t", text: text)).value!
        let buffer = ScreenRenderer(document: document).render(state: .null, width: 4, height: 1).buffer
        XCTAssertEqual(buffer[0, 0].style.attributes, .bold)
        XCTAssertEqual(buffer[1, 0].style.foreground, .ansi(1))
    }

    func testBoxDrawsItsBorderAndTitle() {
        XCTAssertEqual(render(#"{"type": "box", "title": "Hi", "style": {"border": "rounded"}, "child": {"type": "text", "text": "x"}}"#, width: 8, height: 3),
                       ["╭ Hi ──╮", "│x     │", "╰──────╯"])
        XCTAssertEqual(render(#"{"type": "box", "style": {"border": "double", "height": 3}}"#, width: 4, height: 3),
                       ["╔══╗", "║  ║", "╚══╝"])
    }

    func testListRepeatsItsTemplateWithItemAndIndex() {
        XCTAssertEqual(render(#"{"type": "list", "items": "@{items}", "template": {"type": "text", "text": "@{index + 1}. @{item.title}"}}"#,
                              state: #"{"items": [{"title": "Tea"}, {"title": "Cake"}]}"#, height: 3),
                       ["1. Tea", "2. Cake", ""])
    }

    func testComponentsReceiveProps() {
        XCTAssertEqual(render(#"{"type": "row", "children": [ {"type": "component", "name": "tag", "props": {"label": "one"}}, {"type": "component", "name": "tag", "props": {"label": "two"}}]}"#,
                              components: #"{"tag": {"type": "text", "text": "<@{props.label}>", "style": {"width": "auto"}}}"#, height: 1),
                       ["<one><two>"])
    }

    func testVisibleFalseTakesNoSpace() {
        XCTAssertEqual(render(#"{"type": "column", "children": [ {"type": "text", "text": "a", "visible": "@{show}"}, {"type": "text", "text": "b"}]}"#, state: #"{"show": false}"#, height: 2),
                       ["b", ""])
    }

    func testControlsAtRest() {
        XCTAssertEqual(render(#"{"type": "column", "children": [ {"type": "button", "label": "Buy"}, {"type": "checkbox", "label": "Gift", "checked": true}, {"type": "select", "options": [{"label": "Small", "value": "s"}, {"label": "Large", "value": "l"}], "selected": "l"}, {"type": "input", "placeholder": "email", "style": {"width": 10}}, {"type": "input", "value": "secret", "secure": true, "style": {"width": 10}}]}"#, height: 5),
                       ["[ Buy ]", "[x] Gift", "[Large ▾]", "[email   ]", "[******  ]"])
    }

    func testTableAlignsColumns() {
        XCTAssertEqual(render(#"{"type": "table", "columns": ["Item", {"title": "Qty", "align": "right"}], "rows": [["Tea", 2], ["Cake", 10]]}"#, height: 4),
                       ["Item  Qty", "─────────", "Tea     2", "Cake   10"])
    }

    func testTabsProgressSpinnerDivider() {
        XCTAssertEqual(render(#"{"type": "tabs", "selected": 1, "tabs": [ {"title": "A", "body": {"type": "text", "text": "first"}}, {"title": "B", "body": {"type": "text", "text": "second"}}]}"#, width: 10, height: 3),
                       [" A  [B]", "──────────", "second"])
        XCTAssertEqual(render(#"{"type": "progress", "value": 0.5, "label": "cpu"}"#, width: 15, height: 1), ["cpu ███░░░  50%"])
        XCTAssertEqual(render(#"{"type": "row", "children": [{"type": "spinner", "label": "wait"}, {"type": "divider"}, {"type": "text", "text": "x"}]}"#, height: 1),
                       ["⠋ wait│x"])
    }

    func testEvaluationErrorsRenderEmptyAndAreReportedOnce() {
        let text = #"{"format": 1, "id": "t", "body": {"type": "text", "text": "[@{1 / zero}]"}}"#
        let document = ScreenDocument.load(SourceText(name: "t", text: text)).value!
        let renderer = ScreenRenderer(document: document)
        let first = renderer.render(state: .object(JSONObject([("zero", .integer(0))])), width: 30, height: 1)
        XCTAssertEqual(first.buffer.plainLines(), ["[]"], "the failed @{…} renders empty, the text around it stays")
        XCTAssertEqual(first.newDiagnostics.map(\.path), ["$.body.text"])
        XCTAssertEqual(first.newDiagnostics.first?.message, "Failed to evaluate [1 / 0]. Division by zero is not supported.")
        let second = renderer.render(state: .object(JSONObject([("zero", .integer(0))])), width: 30, height: 1)
        XCTAssertEqual(second.newDiagnostics.count, 0)
    }
}
