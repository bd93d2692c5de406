import Foundation
import HybridCells
import HybridEventLoop
import HybridJSON
import HybridRuntime
import HybridTerminal
import TestSupport
import XCTest

/// Writes screens (and scripts) into a temporary folder and drives an app headless.
final class AppHarness {
    /// Removed when the harness goes.
    private let directory: TemporaryDirectory
    var folder: URL { directory.url }
    /// On a manual clock, as `hybrid run --headless` runs: `wait:` takes no wall time.
    let app = HybridApp(loop: EventLoop(clock: .manual(ManualClock())))
    private(set) var problems: [String] = []

    init(size: (Int, Int) = (40, 8)) throws {
        directory = try TemporaryDirectory("hybrid-app")
        app.size = TerminalSize(columns: size.0, rows: size.1)
        app.onProblem = { [unowned self] in problems.append($0) }
    }

    func write(_ files: [String: String]) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Opens `main.json` (written from `screen`) and presses `keys`; returns the frame's rows.
    func run(screen: String, files: [String: String] = [:], keys: String = "") throws -> [String] {
        try render(screen: screen, files: files, keys: keys).plainLines()
    }

    /// Like `run`, but the whole frame as a person sees it: characters, styles and focus
    /// (`StyledFrame`), written to `$RECORD_STYLED/NAME.txt` as well when that is set.
    func frame(_ name: String, screen: String, files: [String: String] = [:], keys: String = "") throws -> String {
        StyledFrame.recorded(name, StyledFrame.text(of: try render(screen: screen, files: files, keys: keys)))
    }

    /// Like `frame`, with `screen` opened as the native screen `main`: messages then name it
    /// `native screen main`, not a temporary path, so a frame that shows one is the same on
    /// every run.
    func frame(_ name: String, nativeScreen screen: String, keys: String = "") throws -> String {
        let document = try JSONParser.parse(screen).plain
        app.registerScreen("main") { _ in document }
        try app.push(url: "app://main")
        return StyledFrame.recorded(name, StyledFrame.text(of: HeadlessDriver.run(app, keys: try KeyScript(parsing: keys))))
    }

    /// The frame after `keys`, with `screen` opened as `main.json`.
    func render(screen: String, files: [String: String] = [:], keys: String = "") throws -> Buffer {
        try write(files.merging(["main.json": screen]) { $1 })
        try app.open(file: folder.appendingPathComponent("main.json").path)
        return HeadlessDriver.run(app, keys: try KeyScript(parsing: keys))
    }

    /// The frame now, as `frame` shows it.
    func frameNow(_ name: String) -> String {
        StyledFrame.recorded(name, StyledFrame.text(of: app.render()))
    }

    /// A screen document around `body`, with `state` and `extra` top-level fields.
    static func screen(_ body: String, state: String = "{}", extra: String = "") -> String {
        #"{"format": 1, "id": "main", "state": \#(state), \#(extra.isEmpty ? "" : extra + ",") "body": \#(body)}"#
    }
}
