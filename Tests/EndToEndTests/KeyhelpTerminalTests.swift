import Foundation
import TestSupport
import XCTest

/// `keyhelp` in a real terminal: `hybrid run` in a pseudo-terminal (`Tests/pty/frames.py`),
/// its output replayed on a terminal model, so the frames are what a person sees, styles
/// included. The footer changes as Tab moves the focus from the search box to the list.
final class KeyhelpTerminalTests: XCTestCase {
    static let screen = #"""
    {"format": 1, "id": "notes", "keys": {"ctrl+n": {"action": "quit", "help": "new note"}, "esc": {"action": "quit", "help": "quit"}},
     "styles": {"footer": {"color": "cyan"}},
     "body": {"type": "column", "children": [
       {"type": "input", "id": "search", "onSubmit": {"action": "quit", "help": "search"}},
       {"type": "list", "items": ["Tea", "Cake"], "onSelect": {"action": "quit", "help": "open"}, "template": {"type": "text", "text": "@{item}"}},
       {"type": "keyhelp", "class": "footer"}]}}
    """#

    /// The screen as the terminal shows it once each text has shown, `keys` pressed in between.
    func frame(_ steps: [String]) throws -> String {
        let folder = try makeTemporaryDirectory("hybrid-keyhelp")
        let screen = folder.appendingPathComponent("notes.json")
        try Self.screen.write(to: screen, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "Tests/pty/frames.py", CommandRunner.productsFolder.appendingPathComponent("hybrid").path,
                             screen.path, "50x5"] + steps
        process.currentDirectoryURL = CommandRunner.repository
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONDONTWRITEBYTECODE": "1", "COLORTERM": "truecolor"]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: output)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, problems)
        var terminal = TerminalModel(width: 50, height: 5)
        terminal.feed(Array(try Data(contentsOf: output)))
        return StyledFrame.text(of: terminal.screen)
    }

    func testTheFooterFollowsTheFocusInARealTerminal() throws {
        XCTAssertEqual(StyledFrame.recorded("keyhelp-terminal-search", try frame(["enter search"])), """
        |[                                                ]
        :ab                                               a
        |Tea
        |Cake
        |enter search · tab next · ctrl+n new note · esc q…
        :cccccdddddddccccccdddddcccccccccdddddddddccccccddc
        |
        a = bold
        b = reverse
        c = dim fg:cyan
        d = fg:cyan
        """)
        XCTAssertEqual(StyledFrame.recorded("keyhelp-terminal-list", try frame(["enter search", "tab", "enter open"])), """
        |[                                                ]
        |Tea
        :aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
        |Cake
        |↑/↓ move · enter open · tab next · ctrl+n new not…
        :bbbcccccbbbbbbbbcccccbbbbbbcccccbbbbbbbbbccccccccb
        |
        a = reverse
        b = dim fg:cyan
        c = fg:cyan
        """)
    }
}
