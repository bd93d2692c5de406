import Foundation
import HybridCells
import HybridJSON

/// The last problem (of a script, an action or a binding), shown on the bottom row until the
/// next key, and where every problem goes besides.
struct StatusLine {
    /// The message on the bottom row.
    var message: String?
    /// Where problems go besides the bottom row; standard error unless the host says otherwise.
    var onProblem: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }

    /// Shows `line` and hands it to `onProblem`.
    mutating func report(_ line: String) {
        let safe = Self.safe(line)
        message = safe
        onProblem(safe)
    }

    /// Hands `line` to `onProblem` only (a warning, or a problem the bottom row need not show).
    func log(_ line: String) {
        onProblem(Self.safe(line))
    }

    /// `text` safe for a terminal, line by line: a report's own lines (a script's stack) stay,
    /// while control characters inside a line, which could drive the terminal, are escaped.
    private static func safe(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { DiagnosticText.safe(String($0)) }.joined(separator: "\n")
    }

    /// Draws the message, red in reverse video, over the bottom row of `buffer`.
    func draw(into buffer: inout Buffer) {
        guard let message, buffer.height > 0 else { return }
        let row = Rect(x: 0, y: buffer.height - 1, width: buffer.width, height: 1)
        let style = CellStyle(foreground: .ansi(1), attributes: .reverse)
        buffer.fill(row, style: style)
        buffer.write(message, x: 0, y: row.y, limit: row.width, style: style)
    }
}
