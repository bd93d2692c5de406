import HybridCells

/// A buffer as styled lines of text for printing into a terminal's scrollback (`hybrid render
/// --ansi`): no cursor addressing, one line per row, every line ending with the style reset so
/// nothing leaks into the shell prompt.
public enum StyledText {
    /// The rows of `buffer` with SGR codes degraded to `colors`; trailing unstyled blanks are
    /// dropped, as in `Buffer.plainLines()`.
    public static func lines(of buffer: Buffer, colors: ColorSupport) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(buffer.width * buffer.height * 2)
        for y in 0..<buffer.height {
            var end = buffer.width
            while end > 0, buffer[end - 1, y] == .blank { end -= 1 }
            var pen = CellStyle.plain
            for x in 0..<end {
                let cell = buffer[x, y]
                if cell.isContinuation { continue }
                var style = cell.style
                style.foreground = style.foreground?.degraded(to: colors)
                style.background = style.background?.degraded(to: colors)
                StyleTransition.append(from: pen, to: style, into: &out)
                pen = style
                cell.appendSymbol(to: &out)
            }
            if pen != .plain { out.append(contentsOf: TerminalControl.resetStyle) }
            out.append(0x0A)
        }
        return out
    }
}
