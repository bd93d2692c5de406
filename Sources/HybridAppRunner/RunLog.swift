import Foundation
import HybridTerm

/// `hybrid run --log FILE`: every console line and problem of the run appended to a file as
/// it happens, whole (a stack too), each headed by the wall-clock time and the time since the
/// app started — what the developer console shows, kept after the app ends.
final class RunLog {
    private let handle: FileHandle
    private let formatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    /// Opens `path` for appending (made when missing).
    /// - Throws: `UserFailure` naming the file when it cannot be opened.
    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw UserFailure.reporting("--log \(path): cannot create the file")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw UserFailure.reporting("--log \(path): cannot open the file for writing")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    deinit {
        try? handle.close()
    }

    /// Writes one entry: `TIME +SECONDS KIND: TEXT`, later lines of the text indented.
    func write(seconds: Double, kind: String, text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let head = "\(formatter.string(from: Date())) +\(String(format: "%.3f", seconds))s \(kind): "
        let body = lines.enumerated().map { $0.offset == 0 ? head + $0.element : "    " + $0.element }.joined(separator: "\n")
        handle.write(Data((body + "\n").utf8))
    }

    /// Has `app` write its console lines and problems here.
    func attach(to app: HybridApp) {
        app.onConsoleEntry = { [self] seconds, kind, text in write(seconds: seconds, kind: kind, text: text) }
    }
}
