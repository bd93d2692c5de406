import ArgumentParser
import HybridCommandLine
#if canImport(Glibc)
import Glibc
#endif

/// `hybrid`: render, validate and run HybridTerm screens and bundles.
@main
struct Hybrid: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hybrid",
        abstract: "Render, validate and run HybridTerm screens and bundles.",
        subcommands: [RenderCommand.self, ValidateCommand.self, RunCommand.self, EvalCommand.self, ExprCommand.self, BundleCommand.self, ServeCommand.self]
    )

    /// Runs the command line with SPEC's exit statuses: 0 success, 1 a user error (reported by
    /// the command itself), 2 bad command-line usage.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as UserFailure {
            Glibc.exit(failure.status)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                FileHandleOutput.standardOutput(Array((fullMessage(for: error) + "\n").utf8))
                Glibc.exit(0)
            }
            FileHandleOutput.standardError(fullMessage(for: error))
            Glibc.exit(2)
        }
    }
}
