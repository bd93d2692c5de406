import HybridCells

/// Turns buffers into the bytes a terminal needs: the only way output reaches a terminal.
///
/// Assumptions about the terminal, which every `encode` keeps true for the next one: it shows
/// `previous` exactly, its pen (SGR state) is plain, autowrap is on, and a grid cell is
/// addressed as row `y + 1`, column `x + 1`. The cursor position is *not* assumed between
/// frames (the host may have moved it, e.g. for an input caret), so each incremental frame
/// begins with an absolute move.
public struct FrameEncoder: Sendable {
    /// The colour level every colour is degraded to.
    public let colors: ColorSupport

    /// Whether the terminal moves lines itself (insert line and delete line, VT102), so that
    /// a band of rows that scrolled is moved rather than sent again.
    public let movesLines: Bool

    /// Creates an encoder for a terminal.
    ///
    /// - Parameters:
    ///   - colors: the colour level every colour is degraded to.
    ///   - movesLines: whether the terminal has insert line and delete line; see
    ///     `movesLines(environment:)`.
    public init(colors: ColorSupport, movesLines: Bool = true) {
        self.colors = colors
        self.movesLines = movesLines
    }

    /// Whether a terminal described by `environment` moves lines: every terminal that sets a
    /// `TERM` other than `dumb` (xterm and its descendants, the Linux console, screen, tmux).
    public static func movesLines(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return !term.isEmpty && term != "dumb"
    }

    /// Bytes that turn a screen showing `previous` into `next`.
    ///
    /// - A band of whole rows that moved up or down (a scroll) is moved by the terminal with
    ///   DL/IL when `movesLines` and when that saves rows (`LineShift`); the rest is diffed
    ///   against what the terminal then shows.
    /// - Only changed glyphs are written; cursor moves are the shortest of CUP, CHA,
    ///   CR/LF, CUF/CUB/CUU/CUD, or re-writing a few unchanged cells of the same style; no
    ///   move at all when the cursor already sits there after the previous glyph.
    /// - SGR changes are minimal; a full reset is used only when an attribute must be turned
    ///   off and the reset is shorter. Colours are degraded to `colors`.
    /// - A row whose changed tail is blank in plain style is cleared with EL (`ESC [K`) when
    ///   that is shorter than writing the blanks.
    /// - Wide glyphs: a glyph is rewritten whole whenever any of its columns changed (also
    ///   when only its continuation cell did), and every column whose glyph boundaries moved
    ///   is rewritten, so half-overwritten wide glyphs never leave debris on a real terminal.
    ///   A wide glyph's look comes from its left cell.
    /// - Defensive: a cell whose symbol contains a control character, has zero width, is an
    ///   orphan continuation, or is a wide glyph cut by the right edge is drawn as a blank.
    /// - `previous == nil` (or a different size) means the screen is unknown: the output
    ///   starts with home + SGR reset + erase display (`ESC [H ESC [0m ESC [2J`) and then
    ///   draws every cell that is not a plain blank.
    /// - The pen is left plain (`ESC [0m` at the end when anything styled was written), so
    ///   an unchanged frame produces no bytes at all.
    public func encode(from previous: Buffer?, to next: Buffer) -> [UInt8] {
        let comparable = previous.map { $0.width == next.width && $0.height == next.height } ?? false
        return next.cells.withUnsafeBufferPointer { nextCells in
            var session = EncodingSession(colors: colors, width: next.width, height: next.height, next: nextCells)
            if comparable, let previous {
                previous.cells.withUnsafeBufferPointer { session.encode(previous: $0, movesLines: movesLines) }
            } else {
                session.out.appendASCII("\u{1B}[H\u{1B}[0m\u{1B}[2J")
                session.cursorX = 0
                session.cursorY = 0
                session.encode(previous: nil)
            }
            session.finish()
            return session.out
        }
    }
}
