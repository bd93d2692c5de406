import HybridCells
import HybridDocument
import HybridJSON
@testable import HybridWidgets
import XCTest

/// A static column is laid out down to the bottom of the screen only (`LayoutEngine`'s
/// column in sight): what shows is what the same column laid out whole shows, frame after
/// frame, as the column moves, the screen resizes and children grow or take a percentage.
final class LongColumnTests: XCTestCase {
    /// The same column twice: static (laid out down to the screen's bottom), and made
    /// dynamic by a `visible` binding that is always true (laid out whole).
    private func screens(lines: [String], columnStyle: String) -> (lazy: String, whole: String) {
        func screen(_ visible: String) -> String {
            let column = #"{"type": "column"\#(visible), "style": \#(columnStyle), "children": [\#(lines.joined(separator: ", "))]}"#
            return #"{"format": 1, "id": "long", "state": {"header": "top", "shown": true}, "body": {"type": "column", "children": [{"type": "text", "text": "@{header}"}, {"type": "box", "style": {"border": "rounded", "padding": 1}, "child": \#(column)}]}}"#
        }
        return (screen(""), screen(#", "visible": "@{shown}""#))
    }

    private func assertSameFrames(_ pair: (lazy: String, whole: String), file: StaticString = #filePath, line: UInt = #line) throws {
        let lazyDocument = try XCTUnwrap(ScreenDocument.load(SourceText(name: "lazy.json", bytes: Array(pair.lazy.utf8))).value, file: file, line: line)
        let wholeDocument = try XCTUnwrap(ScreenDocument.load(SourceText(name: "whole.json", bytes: Array(pair.whole.utf8))).value, file: file, line: line)
        let lazy = ScreenRenderer(document: lazyDocument), whole = ScreenRenderer(document: wholeDocument)
        var lazyState = lazyDocument.state, wholeState = wholeDocument.state
        // Taller and shorter screens, and the column pushed down (by a header of more lines)
        // and back up: lines placed before must not stay where they once showed.
        for (height, header) in [(12, "top"), (30, "top"), (8, "top"), (30, "a\nb\nc\nd\ne"), (30, "top"), (60, "a\nb"), (5, "top")] {
            lazyState.setValue(.string(header), atPath: "header")
            wholeState.setValue(.string(header), atPath: "header")
            let expected = whole.render(state: wholeState, width: 30, height: height).buffer
            XCTAssertEqual(lazy.render(state: lazyState, width: 30, height: height).buffer, expected, "height \(height), header \(header.debugDescription)", file: file, line: line)
        }
    }

    private func text(_ index: Int) -> String {
        #"{"type": "text", "text": "line \#(index)"}"#
    }

    func testPlainLines() throws {
        try assertSameFrames(screens(lines: (0..<80).map(text), columnStyle: "{}"))
        try assertSameFrames(screens(lines: (0..<80).map(text), columnStyle: #"{"gap": 1, "padding": 1, "border": "single"}"#))
    }

    func testAChildTakingAPercentageOfTheColumn() throws {
        var lines = (0..<80).map(text)
        lines.insert(#"{"type": "box", "style": {"height": "20%", "border": "single"}, "child": {"type": "text", "text": "a fifth"}}"#, at: 2)
        try assertSameFrames(screens(lines: lines, columnStyle: "{}"))
    }

    func testAGrowingChild() throws {
        var lines = (0..<80).map(text)
        lines.insert(#"{"type": "box", "style": {"height": "fill", "border": "single"}, "child": {"type": "text", "text": "grows"}}"#, at: 3)
        try assertSameFrames(screens(lines: lines, columnStyle: "{}"))
    }

    func testWrappedLinesOfManyRows() throws {
        let lines = (0..<60).map { #"{"type": "text", "text": "line \#($0) \#(String(repeating: "word ", count: $0 % 7))"}"# }
        try assertSameFrames(screens(lines: lines, columnStyle: #"{"gap": 1}"#))
    }
}
