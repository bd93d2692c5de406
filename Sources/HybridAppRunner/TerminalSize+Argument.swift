import ArgumentParser
import HybridTerm

/// `--size WIDTHxHEIGHT` on the command line (`80x24`). The size itself is HybridTerminal's;
/// only its reading as an argument lives with the programs.
extension TerminalSize {
    /// Reads `WIDTHxHEIGHT`; a size it cannot read is refused saying what is accepted, so the
    /// message tells the limit instead of only that the value is invalid.
    @Sendable public static func argument(_ text: String) throws -> TerminalSize {
        guard let size = TerminalSize(parsing: text) else {
            let range = "\(acceptedCells.lowerBound) to \(acceptedCells.upperBound)"
            throw ValidationError("expected WIDTHxHEIGHT, each \(range) (like \(TerminalSize.standard))")
        }
        return size
    }
}
