#if canImport(Glibc)
import Glibc
#endif

/// The size of the terminal standard output is on.
public enum TerminalGeometry {
    /// Columns and rows, or 80x24 when standard output is not a terminal.
    public static func size() -> (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }
}
