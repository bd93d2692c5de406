import HybridCells
import TestSupport
import XCTest

/// A running app draws a long static part of a screen as it is drawn (`ScreenDocument.Decoding`):
/// focus, keys and the scroll view still find everything they look for.
final class ColdScreenTests: XCTestCase {
    /// A box of `lines` static lines: a cold subtree, decoded when first drawn.
    static func coldBox(lines: Int) -> String {
        let lineJSON = (0..<lines).map { #"{"type": "text", "spans": [{"text": "line \#($0)", "style": {"color": "cyan"}}, {"text": " of the list"}]}"# }
        return #"{"type": "box", "title": "Cold", "style": {"width": 22}, "child": {"type": "column", "children": [\#(lineJSON.joined(separator: ", "))]}}"#
    }

    func testFocusAndKeysReachPastAColdBox() throws {
        // The box comes first in document order: focus walks must pass it to find the button.
        let screen = AppHarness.screen(#"""
            {"type": "row", "children": [\#(Self.coldBox(lines: 60)), {"type": "column", "children": [
              {"type": "button", "label": "Add", "onPress": {"action": "set", "path": "count", "value": "@{count + 1}"}},
              {"type": "text", "text": "count @{count}"}]}]}
            """#, state: #"{"count": 0}"#)
        let harness = try AppHarness(size: (40, 6))
        let rows = try harness.run(screen: screen, keys: "enter enter tab enter")
        XCTAssertEqual(harness.problems, [])
        XCTAssertEqual(rows[0], "┌ Cold ──────────────┐[ Add ]")
        XCTAssertEqual(rows[1], "│line 0 of the list  │count 3")
        XCTAssertEqual(rows[4], "│line 3 of the list  │")
    }

    func testAScrollViewOfColdBoxesShowsEachAsItComesIntoView() throws {
        let screen = AppHarness.screen(#"""
            {"type": "scroll", "children": [\#(Self.coldBox(lines: 40)), \#(Self.coldBox(lines: 40).replacingOccurrences(of: "line ", with: "row "))]}
            """#)
        let harness = try AppHarness(size: (30, 5))
        let rows = try harness.run(screen: screen, keys: String(repeating: "down ", count: 41))
        XCTAssertEqual(harness.problems, [])
        XCTAssertEqual(rows.map { String($0.prefix(22)) }, ["└────────────────────┘", "┌ Cold ──────────────┐", "│row 0 of the list   │", "│row 1 of the list   │", "│row 2 of the list   │"])
    }

    func testAProblemInAColdBoxIsReportedWhenFocusScrollsItIntoView() throws {
        // The box of lines is out of sight when the screen opens; focusing the button below it
        // scrolls it into view in the frame's second drawing, which must report it too, as
        // an error of the document (a headless run then ends with status 1).
        // Lines are decoded as far as they show: the broken one is the third.
        var lines = (0..<120).map { #"{"type": "text", "text": "x\#($0)"}"# }
        lines.insert(#"{"type": "text", "text": "y", "colour": "red"}"#, at: 2)
        let screen = AppHarness.screen(#"""
            {"type": "scroll", "children": [
              {"type": "box", "style": {"height": 30}, "child": {"type": "text", "text": "top"}},
              {"type": "box", "style": {"height": 10}, "child": {"type": "column", "children": [\#(lines.joined(separator: ", "))]}},
              {"type": "button", "label": "Go", "autofocus": true, "onPress": {"action": "set", "path": "n", "value": 1}}]}
            """#)
        let harness = try AppHarness(size: (40, 8))
        let rows = try harness.run(screen: screen)
        XCTAssertTrue(rows.contains { $0.hasPrefix("│x") }, "the box of lines is in sight: \(rows)")
        XCTAssertEqual(harness.problems.count, 1, "\(harness.problems)")
        XCTAssertTrue(harness.problems.first?.contains(#".colour: unknown field "colour" in a "text" node"#) == true, "\(harness.problems)")
        XCTAssertTrue(harness.app.openedDocumentWithErrors)
    }
}
