import Foundation
import HybridTerm

/// A one-line download progress bar on standard error (only made when it is a terminal),
/// redrawn in place at most ten times a second.
public final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private var drawn = false

    /// A bar not drawn yet.
    public init() {}

    /// Shows `received` of `expected` bytes (a byte count alone when the total is unknown).
    public func show(_ received: Int, of expected: Int?) {
        lock.withLock {
            let now = Date()
            let complete = expected.map { received >= $0 } ?? false
            guard complete || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            drawn = true
            // Measured each time: the terminal may be resized while a download runs.
            let columns = TerminalSize.query(STDERR_FILENO)?.columns ?? 80
            FileHandleOutput.writeRaw("\r\u{1B}[2K" + Self.line(received, of: expected, columns: columns))
        }
    }

    /// Ends the bar's line, if one was drawn.
    public func finish() {
        lock.withLock {
            if drawn { FileHandleOutput.writeRaw("\n") }
            drawn = false
        }
    }

    /// `downloading [#######.......]  45%  123 KiB of 270 KiB`, within `columns` (less one, so
    /// the line never wraps): the bar is at most 30 cells and shrinks first, then goes.
    static func line(_ received: Int, of expected: Int?, columns: Int) -> String {
        guard let expected, expected > 0 else { return "downloading  \(size(received))" }
        let fraction = min(1, Double(received) / Double(expected))
        let figures = "\(String(format: "%3d", Int(fraction * 100)))%  \(size(received)) of \(size(expected))"
        let width = min(30, columns - 1 - "downloading [] ".count - figures.count)
        guard width >= 5 else { return "downloading " + figures }
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        return "downloading [\(bar)] " + figures
    }

    private static func size(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) B" : bytes < 1 << 20 ? "\(bytes >> 10) KiB" : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
