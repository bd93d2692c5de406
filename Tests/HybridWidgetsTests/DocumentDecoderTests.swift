import HybridDocument
import HybridJSON
import HybridLayout
@testable import HybridWidgets
import XCTest

final class DocumentDecoderTests: XCTestCase {
    func load(_ text: String) -> Loaded<ScreenDocument> {
        ScreenDocument.load(SourceText(name: "t.json", text: text))
    }

    func testDecodesATypicalScreen() throws {
        let load = self.load("""
        {"format": 1, "id": "home", "title": "Shop", "state": {"count": 2},
         "keys": {"q": {"action": "quit"}, "ctrl+r": "refresh"},
         "body": {"type": "column", "style": {"padding": [1, 2], "gap": 1}, "children": [
           {"type": "text", "text": "Count @{count}", "style": {"bold": true, "color": "#ff8800"}},
           {"type": "button", "id": "buy", "label": "Buy", "onPress": [{"action": "set", "path": "count", "value": "@{count + 1}"}, "bought"]}
         ]}}
        """)
        XCTAssertEqual(load.formattedDiagnostics, [])
        let document = try XCTUnwrap(load.value)
        XCTAssertEqual(document.id, "home")
        XCTAssertEqual(document.keys.map(\.key), ["q", "ctrl+r"])
        XCTAssertEqual(document.body.style.padding, Edges(top: 1, right: 2, bottom: 1, left: 2))
        let children = document.body.children
        XCTAssertEqual(children.map(\.typeName), ["text", "button"])
        XCTAssertEqual(children[0].style.color, .rgb(255, 136, 0))
        XCTAssertFalse(children[0].isStatic, "bound text depends on state")
        XCTAssertEqual(children[1].id, "buy")
        guard case .sequence(let actions)? = (children[1].widget as? Button)?.onPress else { return XCTFail("button with a sequence") }
        XCTAssertEqual(actions.count, 2)
    }

    func testCollectsEveryErrorInSourceOrder() {
        let load = self.load("""
        {"format": 1, "id": "x", "body": {"type": "column", "children": [
          {"type": "txt", "text": "a"},
          {"type": "text", "text": "b", "style": {"widht": 3, "align": "middle"}},
          {"type": "button"}
        ]}}
        """)
        XCTAssertEqual(load.formattedDiagnostics, [
            "t.json:2:12: $.body.children[0].type: unknown node type \"txt\"; did you mean \"text\"?",
            "t.json:3:43: $.body.children[1].style.widht: unknown field \"widht\"; did you mean \"width\"?",
            "t.json:3:64: $.body.children[1].style.align: expected one of \"start\", \"center\", \"end\", \"stretch\", got \"middle\"",
            "t.json:4:3: $.body.children[2]: missing required field \"label\" for a \"button\" node",
        ])
        // Broken nodes stay in the tree as markers; the rest decodes.
        XCTAssertEqual(load.value?.body.children.map(\.typeName), ["invalid", "invalid", "invalid"])
    }

    /// Spans of the common kind are read on a short path once their style has been decoded;
    /// every other span takes the checking path. Both give the same spans, and a problem is
    /// reported wherever it appears, however often its text repeats.
    func testRepeatedSpansDecodeAlikeAndEveryProblemIsReported() throws {
        let load = self.load("""
        {"format": 1, "id": "x", "state": {"n": 2}, "body": {"type": "text", "spans": [
          {"text": "a", "style": {"bold": true}}, {"style": {"bold": true}, "text": "b"}, {"text": "c"},
          {"text": "n=@{n}", "style": {"bold": true}}, {"text": "d", "style": {"color": "nope"}},
          {"text": "e", "style": {"color": "nope"}}, {"text": "f", "text": "g"}, {"text": "h", "colour": 1},
          {"style": {"bold": true}}
        ]}}
        """)
        let colour = ##"unknown colour "nope"; expected a colour: one of the 16 ANSI names, "#rrggbb" or a number 0-255"##
        XCTAssertEqual(load.formattedDiagnostics, [
            "t.json:3:81: $.body.spans[4].style.color: " + colour,
            "t.json:4:36: $.body.spans[5].style.color: " + colour,
            #"t.json:4:60: $.body.spans[6].text: duplicate field "text""#,
            #"t.json:4:88: $.body.spans[7].colour: unknown field "colour" in a span"#,
            #"t.json:5:3: $.body.spans[8]: missing required field "text" for a "span" node"#,
        ])
        let text = try XCTUnwrap(load.value?.body.widget as? Text)
        XCTAssertEqual(text.spans.map { $0.text.constantValue?.stringValue }, ["a", "b", "c", nil, "d", "e", "f", "h"])
        XCTAssertEqual(text.spans.prefix(3).map(\.style.bold), [true, true, nil])
        XCTAssertFalse(text.spans[3].text.isConstant, "a bound span takes the checking path and keeps its binding")
    }

    func testUnknownFormatNamesTheSupportedVersions() {
        let load = self.load(#"{"format": 3, "id": "x", "body": {"type": "spacer"}}"#)
        XCTAssertNil(load.value)
        XCTAssertEqual(load.formattedDiagnostics, ["t.json:1:12: $.format: unsupported format version 3; supported versions: 1"])
    }

    func testBoundStyleFieldsAreKeptForRenderTime() throws {
        let load = self.load(#"{"format": 1, "id": "x", "body": {"type": "text", "text": "a", "style": {"bold": "@{on}", "width": 4}}}"#)
        let body = try XCTUnwrap(load.value?.body)
        XCTAssertEqual(body.boundStyle.map(\.field), ["bold"])
        XCTAssertEqual(body.style.width, .cells(4))
    }

    func testExpressionSyntaxErrorsAreFoundAtLoad() {
        let load = self.load(#"{"format": 1, "id": "x", "body": {"type": "text", "text": "@{1 +}"}}"#)
        XCTAssertEqual(load.formattedDiagnostics.count, 1)
        XCTAssertTrue(load.formattedDiagnostics[0].hasPrefix("t.json:1:59: $.body.text: invalid expression: "), load.formattedDiagnostics[0])
    }

    func testUnknownComponentIsAWarningWithASuggestion() {
        let load = self.load("""
        {"format": 1, "id": "x", "components": {"card": {"type": "text", "text": "@{props.t}"}},
         "body": {"type": "component", "name": "crad"}}
        """)
        XCTAssertFalse(load.hasErrors)
        XCTAssertEqual(load.diagnostics.first?.severity, .warning)
        XCTAssertTrue(load.formattedDiagnostics[0].contains("did you mean \"card\"?"))
    }

    func testDimensionsAndColours() {
        var style = NodeStyle()
        XCTAssertNil(style.set("width", to: .string("50%")))
        XCTAssertEqual(style.width, .percent(50))
        XCTAssertNil(style.set("height", to: .string("fill")))
        XCTAssertEqual(style.height, .fill)
        XCTAssertNil(style.set("background", to: .integer(200)))
        XCTAssertEqual(style.background, .indexed(200))
        XCTAssertNil(style.set("color", to: .string("brightCyan")))
        XCTAssertEqual(style.color, .ansi(14))
        XCTAssertEqual(style.set("width", to: .string("101%")), "expected a number, \"50%\", \"auto\" or \"fill\", got \"101%\"")
        XCTAssertEqual(style.set("margin", to: .array([.integer(1), .integer(2), .integer(3)])),
                       "expected a whole number, [vertical, horizontal] or [top, right, bottom, left], got 3 items")
    }

    func testKeyNames() {
        XCTAssertEqual(KeyName.normalize("q"), "q")
        XCTAssertEqual(KeyName.normalize("ctrl+r"), "ctrl+r")
        XCTAssertEqual(KeyName.normalize("shift+ctrl+Tab"), "ctrl+shift+tab")
        XCTAssertEqual(KeyName.normalize("ctrl++"), "ctrl++")
        XCTAssertNil(KeyName.normalize("hyper+x"))
        XCTAssertNil(KeyName.normalize("ctrl+"))
        XCTAssertNil(KeyName.normalize("ctrl+ctrl+x"))
    }
}
