import HybridCells
import HybridDocument
import HybridJSON
@testable import HybridWidgets
import XCTest

/// A long static screen is decoded and resolved as it is drawn (`ScreenDocument.Decoding`,
/// `ViewChildren`), and nobody can tell but by the time it takes: every frame is the frame of
/// the document decoded whole, and every problem is still found, located, once drawn.
final class ColdSubtreeTests: XCTestCase {
    /// A header bound to state, then `boxes` boxes of `lines` lines of styled spans (a smaller
    /// peer scene), in a scroll view when `scrolling`. `broken` puts an unknown field on one line.
    func scene(boxes: Int = 5, lines: Int = 40, scrolling: Bool = false, broken: (box: Int, line: Int)? = nil) -> String {
        let boxJSON = (0..<boxes).map { box in
            let lineJSON = (0..<lines).map { line in
                let bad = broken.map { $0 == (box, line) } == true ? #", "colour": "red""# : ""
                return #"{"type": "text", "spans": [{"text": "\#(box):\#(line)", "style": {"bold": true, "color": "cyan"}}, {"text": " lorem "}, {"text": "ipsum 漢字", "style": {"italic": true}}], "style": {"wrap": "none"}\#(bad)}"#
            }.joined(separator: ",\n")
            return #"{"type": "box", "title": "box \#(box)", "style": {"border": "rounded", "height": \#(lines + 2)}, "child": {"type": "column", "children": [\#(lineJSON)]}}"#
        }.joined(separator: ",\n")
        let body = scrolling
            ? #"{"type": "column", "children": [{"type": "text", "text": "@{header}"}, {"type": "scroll", "id": "boxes", "style": {"height": "fill"}, "children": [\#(boxJSON)]}]}"#
            : #"{"type": "column", "children": [{"type": "text", "text": "@{header}"}, \#(boxJSON)]}"#
        return #"{"format": 1, "id": "cold", "state": {"header": "Cold scene"}, "body": \#(body)}"#
    }

    func load(_ text: String, _ decoding: ScreenDocument.Decoding) -> Loaded<ScreenDocument> {
        ScreenDocument.load(SourceText(name: "cold.json", text: text), decoding: decoding)
    }

    func testTheFramesAreThoseOfTheDocumentDecodedWhole() throws {
        let text = scene(scrolling: true)
        let drawn = try XCTUnwrap(load(text, .asDrawn).value), whole = try XCTUnwrap(load(text, .whole).value)
        let lazily = ScreenRenderer(document: drawn), eagerly = ScreenRenderer(document: whole)
        var interaction = Interaction()
        // Down the scroll view, into boxes not drawn yet, back up, and the screen resized.
        for (offset, height) in [(0, 12), (30, 12), (95, 12), (180, 12), (3, 12), (3, 30), (60, 8)] {
            interaction.scroll["#boxes"] = offset
            let expected = eagerly.render(state: whole.state, interaction: interaction, width: 40, height: height)
            let frame = lazily.render(state: drawn.state, interaction: interaction, width: 40, height: height)
            XCTAssertEqual(frame.buffer, expected.buffer, "scrolled to \(offset) at height \(height)")
            XCTAssertEqual(frame.newDiagnostics, [])
        }
    }

    func testAColumnTallerThanTheScreenDrawsAsDecodedWhole() throws {
        // The boxes below the screen are never placed or painted; resizing brings them in.
        let text = scene()
        let drawn = try XCTUnwrap(load(text, .asDrawn).value), whole = try XCTUnwrap(load(text, .whole).value)
        let lazily = ScreenRenderer(document: drawn)
        for height in [10, 50, 130, 20, 300] {
            let expected = ScreenRenderer(document: whole).render(state: whole.state, width: 30, height: height).buffer
            XCTAssertEqual(lazily.render(state: drawn.state, width: 30, height: height).buffer, expected, "height \(height)")
        }
    }

    func testOnlyWhatIsDrawnIsDecoded() throws {
        let document = try XCTUnwrap(load(scene(), .asDrawn).value)
        // Each box holds a column; the column's lines are the cold subtree.
        let lines = document.body.childNodes.nodes.dropFirst().map { $0.childNodes.nodes[0].childNodes }
        XCTAssertTrue(lines.allSatisfy { $0.decodedNodes == nil }, "a box's lines wait until drawn")
        let renderer = ScreenRenderer(document: document)
        _ = renderer.render(state: document.state, width: 30, height: 20)
        // The first box shows, but only its lines down to the screen's bottom are decoded.
        XCTAssertEqual(lines.map { $0.decodedNodes != nil }, [false, false, false, false, false])
        XCTAssertNotNil(lines[0].node(at: 0))
        _ = renderer.render(state: document.state, width: 30, height: 100)
        XCTAssertEqual(lines.map { $0.decodedNodes != nil }, [true, true, false, false, false], "a taller screen shows more: the third box in part")
    }

    func testAProblemInAColdSubtreeIsFoundWhenDrawnStillLocated() throws {
        let text = scene(scrolling: true, broken: (3, 7))
        let expected = #"cold.json:128:185: $.body.children[1].children[3].child.children[7].colour: unknown field "colour" in a "text" node"#
        let whole = load(text, .whole)
        XCTAssertEqual(whole.formattedDiagnostics, [expected])

        let drawn = load(text, .asDrawn)
        XCTAssertEqual(drawn.formattedDiagnostics, [], "box 3 is not decoded until drawn")
        let (renderer, frame) = try framesScrolledToBox3(drawn)
        XCTAssertEqual(frame.newDocumentDiagnostics.formatted(in: drawn.source), [expected])
        XCTAssertEqual(frame.newDiagnostics, [])
        XCTAssertTrue(frame.buffer.plainLines().contains { $0.contains("[!") }, "the broken line draws as a marker")
        var interaction = Interaction()
        interaction.scroll["#boxes"] = 3 * 42
        XCTAssertEqual(renderer.render(state: drawn.value!.state, interaction: interaction, width: 60, height: 12).newDocumentDiagnostics, [],
                       "reported once")
    }

    /// The first frame of the scrolling scene `drawn`, which must report no problem, then the
    /// frame scrolled to box 3 (at row 3 * 42 of the scroll view's content, its line 7 in view).
    func framesScrolledToBox3(_ drawn: Loaded<ScreenDocument>, file: StaticString = #filePath, line: UInt = #line) throws -> (ScreenRenderer, ScreenRenderer.Frame) {
        let document = try XCTUnwrap(drawn.value, file: file, line: line)
        let renderer = ScreenRenderer(document: document)
        var interaction = Interaction()
        let first = renderer.render(state: document.state, interaction: interaction, width: 60, height: 12)
        XCTAssertEqual(first.newDiagnostics + first.newDocumentDiagnostics, [], file: file, line: line)
        interaction.scroll["#boxes"] = 3 * 42
        return (renderer, renderer.render(state: document.state, interaction: interaction, width: 60, height: 12))
    }

    func testWhatTheScreenMustKnowAtOnceIsNeverDeferred() {
        // An id, a binding, a focusable node or autofocus anywhere in a large subtree: decoded
        // with the screen, so its problem (here the unknown field) is reported by `load`.
        for extra in [#", {"type": "text", "id": "late", "text": "x"}"#, #", {"type": "text", "text": "@{header}"}"#,
                      #", {"type": "button", "label": "Go"}"#, #", {"type": "text", "text": "x", "autofocus": true}"#,
                      #", {"type": "text", "text": "\u0040{header}"}"#] {
            let lines = #""title": "box 4", "style": {"border": "rounded", "height": 42}, "child": {"type": "column", "children": ["#
            let text = scene(broken: (4, 39)).replacingOccurrences(of: lines, with: lines + extra.dropFirst(2) + ", ")
            XCTAssertEqual(load(text, .asDrawn).diagnostics.count, 1, extra)
        }
        XCTAssertEqual(load(scene(broken: (4, 39)), .asDrawn).diagnostics.count, 0, "deferred without them")
    }

    func testASmallSubtreeIsDecodedWithTheScreen() {
        XCTAssertEqual(load(scene(boxes: 2, lines: 2, broken: (1, 1)), .asDrawn).diagnostics.count, 1)
    }

    func testAListTheParserSkippedIsParsedWhenDrawnAndItsSyntaxErrorLocated() throws {
        // `01` is no JSON number. In a cold box the document opens, and the frame that first
        // draws the box reports it where a whole parse would have stopped.
        let text = scene(scrolling: true).replacingOccurrences(of: #""text": "3:7""#, with: #""text": "3:7", "x": 01"#)
        let whole = load(text, .whole)
        XCTAssertNil(whole.value)
        let expected = try XCTUnwrap(whole.formattedDiagnostics.first)
        XCTAssertTrue(expected.hasPrefix("cold.json:128:"), expected)

        let drawn = load(text, .asDrawn)
        XCTAssertEqual(drawn.formattedDiagnostics, [])
        let frame = try framesScrolledToBox3(drawn).1
        XCTAssertEqual(frame.newDocumentDiagnostics.map(\.offset), whole.diagnostics.map(\.offset))
        XCTAssertEqual(frame.newDocumentDiagnostics.first?.message, whole.diagnostics.first?.message)
        XCTAssertTrue(frame.buffer.plainLines().contains { $0.contains("[!") }, "the broken box draws as a marker")
    }

    func testAListTheParserSkippedIsParsedAsFarAsItIsDrawn() throws {
        // Line 35 of the first box is broken: the first frame shows lines 0 to 9 and parses
        // no further, so it reports nothing; scrolled down to it, the frame reports the error
        // where a whole parse stops, and the lines before it draw.
        let text = scene(scrolling: true).replacingOccurrences(of: #""text": "0:35""#, with: #""text": "0:35", "x": 01"#)
        let whole = load(text, .whole)
        let drawn = load(text, .asDrawn)
        let document = try XCTUnwrap(drawn.value)
        let renderer = ScreenRenderer(document: document)
        var interaction = Interaction()
        XCTAssertEqual(renderer.render(state: document.state, interaction: interaction, width: 60, height: 12).newDocumentDiagnostics, [])
        interaction.scroll["#boxes"] = 28
        let frame = renderer.render(state: document.state, interaction: interaction, width: 60, height: 12)
        XCTAssertEqual(frame.newDocumentDiagnostics.map(\.offset), whole.diagnostics.map(\.offset))
        XCTAssertEqual(frame.newDocumentDiagnostics.first?.message, whole.diagnostics.first?.message)
        let rows = frame.buffer.plainLines()
        XCTAssertTrue(rows.contains { $0.contains("0:34 lorem") }, "the line before the break draws")
        XCTAssertTrue(rows.contains { $0.contains("[!") }, "the break draws as a marker")
        XCTAssertFalse(rows.contains { $0.contains("0:36") }, "nothing after the break")
    }

    func testAListTheParserSkippedThatTheScreenReadsFailsItAsAWholeParseWould() {
        // The same error among lines one of which is bound: not cold, read as the screen opens.
        let text = scene().replacingOccurrences(of: #""text": "3:7""#, with: #""text": "3:7", "x": 01"#)
            .replacingOccurrences(of: #""text": "3:8""#, with: #""text": "@{header}""#)
        XCTAssertEqual(load(text, .asDrawn).formattedDiagnostics, load(text, .whole).formattedDiagnostics)
        XCTAssertNil(load(text, .asDrawn).value)
    }
}
