import ArgumentParser
import HybridAppRunner
import HybridTerm

/// `hybrid`: render, validate and run HybridTerm screens and bundles.
@main
struct Hybrid: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hybrid",
        abstract: "Render, validate and run HybridTerm screens and bundles.",
        version: "hybrid " + BuiltInServices.version,
        subcommands: [RenderCommand.self, ValidateCommand.self, RunCommand.self, EvalCommand.self, ExprCommand.self, BundleCommand.self, ServeCommand.self, CacheCommand.self, InitCommand.self]
    )

    static func main() {
        runWithExitStatuses()
    }
}
