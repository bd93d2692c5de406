#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal's size in cells: what a session reports, what `--size` asks for, what an app
/// draws at and what `device.info` tells scripts. The one model of it, and `query` the one
/// place it is asked of the system.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// A size of `columns` by `rows` cells.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// 80x24: what a run without a terminal draws at, and what a terminal that will not say
    /// its size is taken to be.
    public static let standard = TerminalSize(columns: 80, rows: 24)

    /// The columns and the rows a size given on the command line may have, each.
    public static let acceptedCells = 1...1000

    /// Reads `WIDTHxHEIGHT` (`80x24`, `120X40`), each within `acceptedCells`, as the command
    /// line gives it.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
              Self.acceptedCells.contains(columns), Self.acceptedCells.contains(rows) else { return nil }
        self.init(columns: columns, rows: rows)
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(columns)x\(rows)" }

    /// The size of the terminal on `descriptor` (standard output by default); `nil` when it is
    /// not a terminal or reports no size.
    public static func query(_ descriptor: Int32 = STDOUT_FILENO) -> TerminalSize? {
        var window = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }
}
