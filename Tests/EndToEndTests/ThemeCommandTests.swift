import Foundation
import TestSupport
import XCTest

/// A bundle's theme through the real binary: `render` of one of its screens applies it,
/// `validate` checks the theme file and every `class` against it, located, with a did-you-mean.
final class ThemeCommandTests: XCTestCase {
    func makeBundle(theme: String, screen: String) throws -> URL {
        let folder = try makeTemporaryDirectory("hybrid-theme")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("screens"), withIntermediateDirectories: true)
        let files = [
            "manifest.json": #"{"app": "themed", "version": "1.0.0", "start": "home", "theme": "theme.json", "screens": {"home": "screens/home.json"}}"#,
            "theme.json": theme,
            "screens/home.json": screen,
        ]
        for (path, text) in files { try text.write(to: folder.appendingPathComponent(path), atomically: true, encoding: .utf8) }
        return folder
    }

    static let theme = #"{"$schema": "theme.schema.json", "title": {"bold": true, "color": "red"}, "muted": {"dim": true}}"#

    func testRenderOfABundlesScreenAppliesTheThemeAndTheDocumentsOwnStyleWins() throws {
        let folder = try makeBundle(theme: Self.theme, screen: #"""
        {"format": 1, "id": "home", "styles": {"muted": {"italic": true}},
         "keys": {"esc": {"action": "quit", "help": "quit"}},
         "body": {"type": "column", "children": [
           {"type": "text", "text": "Title", "class": "title"},
           {"type": "text", "text": "Muted", "class": "muted title", "style": {"color": "green"}},
           {"type": "keyhelp"}]}}
        """#)
        let result = try CommandRunner.hybrid(["render", folder.appendingPathComponent("screens/home.json").path, "--size", "12x3", "--ansi"],
                                              environment: ["COLORTERM": "truecolor", "TERM": "xterm-256color", "NO_COLOR": ""])
        XCTAssertEqual(result.status, 0, result.standardError)
        var terminal = TerminalModel(width: 12, height: 3)
        terminal.feed(Array(result.standardOutput.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        XCTAssertEqual(StyledFrame.recorded("theme-render", StyledFrame.text(of: terminal.screen)), """
        |Title
        :aaaaa
        |Muted
        :bbbbb
        |esc quit
        :ccc
        a = bold fg:red
        b = bold italic fg:green
        c = dim
        """)
    }

    func testValidateLocatesAnUnknownClassAndAThemesProblems() throws {
        let folder = try makeBundle(theme: #"{"title": {"bold": "yes"}}"#,
                                    screen: #"{"format": 1, "id": "home", "body": {"type": "text", "text": "Hi", "class": "titel"}}"#)
        let result = try CommandRunner.hybrid(["validate", folder.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError, """
        \(folder.path)/theme.json:1:20: $.title.bold: expected true or false
        \(folder.path)/screens/home.json:1:77: $.body.class: unknown class "titel"; did you mean "title"? (named styles here: "title")

        """)
        let screenAlone = try CommandRunner.hybrid(["validate", folder.appendingPathComponent("screens/home.json").path])
        XCTAssertEqual(screenAlone.status, 1, "a screen file alone is checked against its bundle's theme too")
        XCTAssertTrue(screenAlone.standardError.contains(#"unknown class "titel"; did you mean "title"?"#), screenAlone.standardError)
    }

    func testAThemeThatIsNotJSONIsOneProblemNotOnePerClass() throws {
        let folder = try makeBundle(theme: #"{"title": {"bold": tru}}"#,
                                    screen: #"{"format": 1, "id": "home", "body": {"type": "text", "text": "Hi", "class": "title"}}"#)
        let result = try CommandRunner.hybrid(["validate", folder.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.standardError, "\(folder.path)/theme.json:1:20: $: invalid JSON: unexpected 't', expected a value\n")
    }
}

extension LiveReloadTests {
    /// The theme is a file of the bundle like any other: an edit to it restyles the screen on
    /// top (padding shows in plain text).
    func testAnEditedThemeRestylesTheRunningApp() throws {
        let bundle = folder.appendingPathComponent("site/hello")
        try #"{"app": "hello", "version": "1.0.0", "entry": "main.js", "start": "home", "theme": "theme.json", "screens": {"home": "screens/home.json"}}"#
            .write(to: bundle.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        try #"{"pad": {"padding": [0, 2]}}"#.write(to: bundle.appendingPathComponent("theme.json"), atomically: true, encoding: .utf8)
        try #"{"format": 1, "id": "home", "body": {"type": "text", "text": "Hello", "class": "pad"}}"#
            .write(to: bundle.appendingPathComponent("screens/home.json"), atomically: true, encoding: .utf8)
        let (frame, errors) = try runWhileEditing(seconds: 6) {
            try #"{"pad": {"padding": [0, 6]}}"#.write(to: bundle.appendingPathComponent("theme.json"), atomically: true, encoding: .utf8)
        }
        XCTAssertTrue(frame.hasPrefix("      Hello"), "\(frame)\n\(errors)")
    }
}
