import Foundation
import HybridRuntime
import HybridTerminal
import TestSupport
import XCTest

/// Writes screens (and scripts) into a temporary folder and drives an app headless.
final class AppHarness {
    /// Removed when the harness goes.
    private let directory: TemporaryDirectory
    var folder: URL { directory.url }
    let app = HybridApp()
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
        try write(files.merging(["main.json": screen]) { $1 })
        try app.open(file: folder.appendingPathComponent("main.json").path)
        return HeadlessDriver.run(app, keys: try KeyScript(parsing: keys)).plainLines()
    }

    /// A screen document around `body`, with `state` and `extra` top-level fields.
    static func screen(_ body: String, state: String = "{}", extra: String = "") -> String {
        #"{"format": 1, "id": "main", "state": \#(state), \#(extra.isEmpty ? "" : extra + ",") "body": \#(body)}"#
    }
}
