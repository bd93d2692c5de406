import HybridDocument
import HybridJSON
import HybridWidgets
import TestSupport
import XCTest

/// Named styles (SPEC §2): a node's `class` applies the document's `styles` and the theme's,
/// in order, before its own `style`; a document's style of a name wins over the theme's; an
/// unknown class is located with a did-you-mean and the node still draws.
final class NamedStyleTests: XCTestCase {
    static let theme = Theme.load(SourceText(name: "theme.json", text: #"{"$schema": "theme.schema.json", "title": {"bold": true, "color": "red"}, "note": {"italic": true}}"#))

    func frame(_ document: String, theme: NamedStyles = NamedStyleTests.theme.value!, width: Int = 12, height: Int = 3) -> (String, [String]) {
        let load = ScreenDocument.load(SourceText(name: "t.json", text: document), theme: theme)
        guard let document = load.value else { return ("", load.formattedDiagnostics) }
        let frame = ScreenRenderer(document: document).render(state: document.state, width: width, height: height)
        return (StyledFrame.text(of: frame.buffer), load.formattedDiagnostics)
    }

    func testClassesApplyInOrderThenTheNodesOwnStyleAndTheDocumentsNameWins() {
        XCTAssertTrue(Self.theme.passes)
        let (text, problems) = frame(#"""
        {"format": 1, "id": "t", "styles": {"note": {"color": "green"}, "loud": {"underline": true, "color": "blue"}},
         "body": {"type": "column", "children": [
           {"type": "text", "text": "Theme", "class": "title"},
           {"type": "text", "text": "Mine", "class": "note"},
           {"type": "text", "text": "Own", "class": "title loud", "style": {"color": "yellow"}}]}}
        """#)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(StyledFrame.recorded("classes", text), """
        |Theme
        :aaaaa
        |Mine
        :bbbb
        |Own
        :ccc
        a = bold fg:red
        b = fg:green
        c = bold underline fg:yellow
        """)
    }

    func testAnUnknownClassIsLocatedWithADidYouMeanAndTheNodeStillDraws() {
        let (text, problems) = frame(#"{"format": 1, "id": "t", "body": {"type": "text", "text": "Hi", "class": "titel", "style": {"dim": true}}}"#, height: 1)
        XCTAssertEqual(problems, [#"t.json:1:74: $.body.class: unknown class "titel"; did you mean "title"? (named styles here: "note", "title")"#])
        XCTAssertEqual(text, """
        |Hi
        :aa
        a = dim
        """)
    }

    func testNamedStylesAreCheckedWhereTheyAreWritten() {
        let (_, problems) = frame(#"{"format": 1, "id": "t", "styles": {"a b": {}, "x": {"color": "@{c}", "widht": 3}}, "body": {"type": "text", "text": "", "class": 3}}"#, theme: NamedStyles())
        XCTAssertEqual(problems, [
            #"t.json:1:37: $.styles["a b"]: expected a style name (a letter or "_", then letters, digits, "_" or "-"), got "a b""#,
            #"t.json:1:63: $.styles.x.color: a named style holds literal values; bind "color" in a node's own "style""#,
            #"t.json:1:71: $.styles.x.widht: unknown field "widht"; did you mean "width"?"#,
            #"t.json:1:131: $.body.class: expected a string, got a number"#,
        ])
        let theme = Theme.load(SourceText(name: "theme.json", text: #"{"ok": {"bold": true}, "bad": {"color": "blu"}}"#))
        XCTAssertEqual(theme.formattedDiagnostics, [##"theme.json:1:41: $.bad.color: unknown colour "blu"; expected a colour: one of the 16 ANSI names, "#rrggbb" or a number 0-255; did you mean "blue"?"##])
        XCTAssertEqual(theme.value?.names, ["bad", "ok"], "the styles that fit still apply")
    }
}
