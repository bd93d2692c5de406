/// Why an app could not open something: the problems, already formatted
/// (`FILE:LINE:COL: $.path: message`), one per line.
public struct AppError: Error, CustomStringConvertible, Sendable {
    /// The problems, one per entry.
    public var lines: [String]
    /// Whether the failure is the bundle's own (a start that fails this way marks its version
    /// bad), rather than the machine's: its database locked by another process.
    var isTheBundles = true

    /// An error with these lines.
    public init(_ lines: [String]) {
        self.lines = lines
    }

    /// An error with one line.
    public init(_ line: String) {
        self.lines = [line]
    }

    public var description: String { lines.joined(separator: "\n") }
}
