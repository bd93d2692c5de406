import ArgumentParser
import HybridTerm

/// `--size WIDTHxHEIGHT` on the command line (`80x24`). The size itself is HybridTerminal's;
/// only its reading as an argument lives with the programs.
extension TerminalSize: ExpressibleByArgument {
    /// Reads `WIDTHxHEIGHT`, each 1 to 1000.
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
