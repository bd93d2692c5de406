import HybridBundles
import HybridCells
import HybridRuntime
import TestSupport
import XCTest

/// A running app's `keyhelp` follows the focus, and a bundle's theme reaches every screen it
/// opens: frames as a person sees them, driven headless.
final class KeyhelpAndThemeTests: XCTestCase {
    static let notes = AppHarness.screen(#"""
    {"type": "column", "children": [
      {"type": "input", "id": "search", "autofocus": true},
      {"type": "list", "id": "notes", "items": ["Tea", "Cake"], "onSelect": {"action": "back", "help": "open"}, "template": {"type": "text", "text": "@{item}"}},
      {"type": "keyhelp"}]}
    """#, extra: #""keys": {"ctrl+n": {"action": "quit", "help": "new note"}, "esc": {"action": "quit", "help": "quit"}}"#)

    func testTheLineFollowsTheFocus() throws {
        let search = try AppHarness(size: (44, 5)).run(screen: Self.notes)
        XCTAssertEqual(search[3], "tab next · ctrl+n new note · esc quit", "an input without onSubmit has no Enter to show")
        let list = try AppHarness(size: (44, 5)).frame("keyhelp-follows-focus", screen: Self.notes, keys: "tab down")
        XCTAssertEqual(list, """
        |[                                          ]
        |Tea
        |Cake
        :aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
        |↑/↓ move · enter open · tab next · ctrl+n n…
        :bbb     bbbbbbbb     bbbbbb     bbbbbbbbb  b
        |
        a = reverse
        b = dim
        """)
    }

    func testTheThemeReachesEveryScreenAndADocumentsOwnStyleWins() throws {
        let harness = try AppHarness(size: (30, 3))
        try harness.write([
            "manifest.json": #"{"app": "themed", "version": "1.0.0", "start": "home", "theme": "theme.json", "screens": {"home": "home.json", "other": "other.json"}}"#,
            "theme.json": #"{"title": {"bold": true, "color": "red"}, "hint": {"dim": true}}"#,
            "home.json": #"{"format": 1, "id": "home", "keys": {"n": {"action": "navigate", "url": "app://other"}}, "body": {"type": "text", "text": "Home", "class": "title"}}"#,
            "other.json": #"{"format": 1, "id": "other", "styles": {"title": {"underline": true}}, "body": {"type": "column", "children": [{"type": "text", "text": "Other", "class": "title"}, {"type": "text", "text": "hint", "class": "hint"}]}}"#,
        ])
        try harness.app.load(bundle: XCTUnwrap(BundleFolder.open(harness.folder.path).value))
        XCTAssertEqual(StyledFrame.text(of: HeadlessDriver.run(harness.app, keys: try KeyScript(parsing: ""))), """
        |Home
        :aaaa
        |
        |
        a = bold fg:red
        """)
        XCTAssertEqual(StyledFrame.text(of: HeadlessDriver.run(harness.app, keys: try KeyScript(parsing: "n"))), """
        |Other
        :aaaaa
        |hint
        :bbbb
        |
        a = underline
        b = dim
        """)
        XCTAssertEqual(harness.problems.filter { !$0.contains("a development bundle") }, [])
    }

    func testAnUnknownClassIsReportedOnceAndTheScreenStillDraws() throws {
        let harness = try AppHarness(size: (50, 2))
        let rows = try harness.run(screen: AppHarness.screen(#"{"type": "text", "text": "Hi", "class": "titel"}"#, extra: #""styles": {"title": {"bold": true}}"#), keys: "x x")
        XCTAssertEqual(rows[0], "Hi")
        XCTAssertEqual(harness.problems.count, 1, "\(harness.problems)")
        XCTAssertTrue(harness.problems.first?.hasSuffix(#"$.body.class: unknown class "titel"; did you mean "title"? (named styles here: "title")"#) == true, "\(harness.problems)")
    }
}
