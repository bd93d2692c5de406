import ArgumentParser

/// A `WIDTHxHEIGHT` command-line value such as `80x24`.
struct TerminalSize: ExpressibleByArgument, CustomStringConvertible {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...1000).contains(width), (1...1000).contains(height) else { return nil }
        self.init(width: width, height: height)
    }

    var description: String { "\(width)x\(height)" }
    static let standard = TerminalSize(width: 80, height: 24)
}
