import HybridDocument
import HybridJSON
import HybridWidgets
import Testing

/// Components and list items multiply views; a frame resolves at most
/// `ScreenRenderer.maximumViews` of them, marks where it stopped, and validation warns first.
@Suite struct ViewBudgetTests {
    /// Four copies of the next component, `levels` deep: 4^levels leaves from a few lines.
    private func bomb(levels: Int) -> String {
        let components = (0..<levels).map { level in
            let copy = #"{"type": "component", "name": "c\#(level + 1)"}"#
            return #""c\#(level)": {"type": "column", "children": [\#(Array(repeating: copy, count: 4).joined(separator: ", "))]}"#
        } + [#""c\#(levels)": {"type": "text", "text": "leaf"}"#]
        return #"{"format": 1, "id": "t", "components": {\#(components.joined(separator: ", "))}, "body": {"type": "component", "name": "c0"}}"#
    }

    @Test func expansionStopsAtTheBudgetWithAMarker() throws {
        let load = ScreenDocument.load(SourceText(name: "t.json", text: bomb(levels: 10)))
        let document = try #require(load.value)
        #expect(load.diagnostics.map(\.path) == ["$.body"])
        #expect(load.diagnostics.map(\.message) == [
            "the components used here expand to more than 10000 views; views past that are not drawn (an error marker shows where they stop)",
        ])
        #expect(load.diagnostics.map(\.severity) == [.warning])
        let frame = ScreenRenderer(document: document).render(state: document.state, width: 30, height: 3)
        #expect(frame.newDiagnostics.map(\.message) == ["the screen expands to more than 10000 views (components and list items); the rest is not drawn"])
        #expect(frame.buffer.plainLines() == ["leaf", "leaf", "leaf"])
    }

    @Test func aListOfManyItemsIsCutAndMarkedWhereItStops() throws {
        let text = #"{"format": 1, "id": "t", "state": {"n": [\#(Array(repeating: "1", count: 20_000).joined(separator: ","))]}, "body": {"type": "scroll", "children": [{"type": "list", "items": "@{n}", "template": {"type": "text", "text": "x"}}]}}"#
        let load = ScreenDocument.load(SourceText(name: "t.json", text: text))
        let document = try #require(load.value)
        #expect(load.diagnostics.isEmpty, "the number of items is data: nothing to warn about")
        let frame = ScreenRenderer(document: document).render(state: document.state, width: 30, height: 2)
        #expect(frame.newDiagnostics.count == 1)
        #expect(frame.buffer.plainLines() == ["x", "x" + String(repeating: " ", count: 28) + "▼"])
    }

    @Test func componentsInDeepTemplatesStopAtTheDepthLimit() throws {
        // 33 components each 200 columns deep: 6,600 nested views overflowed the stack.
        func nested(_ inner: String) -> String {
            String(repeating: #"{"type": "column", "children": ["#, count: 200) + inner + String(repeating: "]}", count: 200)
        }
        let components = (0..<33).map { #""c\#($0)": \#(nested(#"{"type": "component", "name": "c\#($0 + 1)"}"#))"# }
        let text = #"{"format": 1, "id": "t", "components": {\#(components.joined(separator: ", ")), "c33": {"type": "text", "text": "end"}}, "body": {"type": "component", "name": "c0"}}"#
        let document = try #require(ScreenDocument.load(SourceText(name: "t.json", text: text)).value)
        let frame = ScreenRenderer(document: document).render(state: document.state, width: 30, height: 1)
        #expect(frame.buffer.plainLines() == ["[!] nested too deep"])
        #expect(frame.newDiagnostics.map(\.message) == ["views nest deeper than 300 levels (components inside deep templates); the rest is not drawn"])
    }

    @Test func expressionsStopWhenTheFrameHasMadeTooMuchText() throws {
        // Forty items each making a megabyte of text, within their own limit: 40 MB in all.
        let text = #"{"format": 1, "id": "t", "state": {"n": [\#((0..<40).map(String.init).joined(separator: ","))]}, "body": {"type": "list", "items": "@{n}", "template": {"type": "text", "text": "@{index}:@{padStart('', 1000000, 'x')}", "style": {"wrap": "none"}}}}"#
        let document = try #require(ScreenDocument.load(SourceText(name: "t.json", text: text)).value)
        let frame = ScreenRenderer(document: document).render(state: document.state, width: 8, height: 40)
        let rows = frame.buffer.plainLines()
        #expect(rows.first == "0:xxxxxx")
        #expect(rows.last == "", "the last items render empty")
        #expect(frame.newDiagnostics.map(\.message) == [
            "this frame's expressions take more than 2 s or make more than 16 MiB of text; the rest render empty",
        ])
    }

    @Test func screensUnderTheBudgetAreUntouched() {
        let load = ScreenDocument.load(SourceText(name: "t.json", text: bomb(levels: 5)))
        #expect(load.diagnostics.isEmpty)
    }
}
