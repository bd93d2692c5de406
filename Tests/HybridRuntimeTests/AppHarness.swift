import Foundation
import HybridRuntime
import XCTest

/// Writes screens (and scripts) into a temporary folder and drives an app headless.
final class AppHarness {
    let folder: URL
    let app = HybridApp()
    private(set) var problems: [String] = []

    init(size: (Int, Int) = (40, 8)) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        app.size = (size.0, size.1)
        app.onProblem = { [unowned self] in problems.append($0) }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
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
