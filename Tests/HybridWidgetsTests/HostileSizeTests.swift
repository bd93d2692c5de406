import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout
import HybridWidgets
import Testing

/// Sizes no screen can show, which used to trap (a double too large for an `Int`, sums that
/// overflow) or hang (strings and loops as long as the size): they are taken as
/// `Dimension.maximumCells`, and drawing costs only what the screen shows.
@Suite struct HostileSizeTests {
    private func render(_ body: String, state: String = "{}", width: Int = 30, height: Int = 6) -> (rows: [String], problems: [String]) {
        let text = #"{"format": 1, "id": "t", "state": \#(state), "body": \#(body)}"#
        let load = ScreenDocument.load(SourceText(name: "t.json", text: text))
        guard let document = load.value else { return ([], load.formattedDiagnostics) }
        let frame = ScreenRenderer(document: document).render(state: document.state, width: width, height: height)
        return (frame.buffer.plainLines(), load.formattedDiagnostics + frame.newDiagnostics.map { $0.formatted(in: load.source) })
    }

    @Test func hugeNumbersSaturateInsteadOfTrapping() {
        let width = try? NodeStyle.dimension(.number(1e19))
        #expect(width == .cells(Dimension.maximumCells))
        var node = NodeStyle()
        #expect(node.set("padding", to: .integer(Int.max)) == nil)
        #expect(node.padding == Edges(top: Dimension.maximumCells, right: Dimension.maximumCells,
                                      bottom: Dimension.maximumCells, left: Dimension.maximumCells))
        let result = render(#"{"type": "column", "style": {"width": 1e19, "padding": 9223372036854775807, "gap": 9223372036854775807, "flex": 1e308}, "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}"#)
        #expect(result.problems == [])
        #expect(result.rows == Array(repeating: "", count: 6), "the padding pushes everything off screen")
    }

    @Test func hugeFramesDrawOnlyWhatShows() {
        let table = #"{"type": "table", "columns": [{"title": "A", "width": 4294967296}, "B"], "rows": [["x", "y"]]}"#
        let box = #"{"type": "box", "style": {"height": 4611686018427387904, "border": "single"}, "child": {"type": "list", "items": [1, 2], "template": {"type": "text", "text": "@{item}"}}}"#
        let row = #"{"type": "row", "style": {"gap": 99999999999}, "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}"#
        let result = render(#"{"type": "column", "children": [\#(table), \#(row), \#(box)]}"#, width: 12, height: 8)
        #expect(result.problems == [])
        #expect(result.rows == ["A", "────────────", "x", "", "┌──────────┐", "│1         │", "│2         │", "│          │"])
    }

    @Test func longInputValuesScrollInOnePass() {
        let value = String(repeating: "x", count: 200_000)
        let result = render(#"{"type": "input", "value": "@{v}"}"#, state: #"{"v": "\#(value)"}"#, width: 10, height: 1)
        #expect(result.rows == ["[xxxxxxx ]"])
    }
}
