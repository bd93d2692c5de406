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

    /// Where the whole message is, said at the row's end when there is room.
    static let hint = " F12: details"

    /// Draws the message, red in reverse video, over the bottom row of `buffer`: its first line,
    /// and at the end where the whole of it is (the developer console).
    func draw(into buffer: inout Buffer) {
        guard let message, buffer.height > 0 else { return }
        let row = Rect(x: 0, y: buffer.height - 1, width: buffer.width, height: 1)
        let style = CellStyle(foreground: .ansi(1), attributes: .reverse)
        buffer.fill(row, style: style)
        let hint = row.width >= 40 ? Self.hint : ""
        let first = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? message
        let limit = row.width - hint.count
        // A message longer than the row, or of several lines (a stack), ends in "…".
        let cut = DisplayWidth.of(first) > limit || first.count < message.count
        buffer.write(first, x: 0, y: row.y, limit: cut ? limit - 1 : limit, style: style)
        if cut { buffer.write("…", x: limit - 1, y: row.y, limit: 1, style: style) }
        buffer.write(hint, x: limit, y: row.y, limit: hint.count, style: CellStyle(foreground: .ansi(1), attributes: [.reverse, .bold]))
    }
}
