import ArgumentParser

/// A `WIDTHxHEIGHT` command-line value such as `80x24`.
public struct TerminalSize: ExpressibleByArgument, CustomStringConvertible, Sendable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A size of `width` columns and `height` rows.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads `WIDTHxHEIGHT`, each 1 to 1000.
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...1000).contains(width), (1...1000).contains(height) else { return nil }
        self.init(width: width, height: height)
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
    /// 80x24.
    public static let standard = TerminalSize(width: 80, height: 24)
}
