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
        // The commands that run scripts need JavaScriptCore: it loads on another core while
        // the arguments are parsed and the app is set up (`AppRunner` waits for it).
        if let command = CommandLine.arguments.dropFirst().first, ["run", "eval"].contains(command) {
            JavaScriptEngine.startLoading()
        }
        runWithExitStatuses()
    }
}
