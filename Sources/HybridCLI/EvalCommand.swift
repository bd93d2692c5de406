import ArgumentParser
import Foundation
import HybridAppRunner
import HybridTerm

/// `hybrid eval SCRIPT.js`: runs a script against the built-in services until nothing is pending.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Run a script against the built-in services until no timer or call is pending.",
        discussion: """
        console.log/info/debug print to standard output, console.warn/error to standard error. \
        The exit status is 1 after an uncaught exception, an unhandled rejection or a runaway script.
        """
    )

    @Argument(help: "The script (CommonJS; require() resolves inside its folder).")
    var script: String

    @Option(help: "The app whose storage the script uses.")
    var app = "eval"

    func validate() throws {
        guard !app.isEmpty, app.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), !app.hasPrefix(".") else {
            throw ValidationError("--app takes a name of letters, digits, '-', '_' and '.', got \"\(app)\"")
        }
    }

    func run() throws {
        // No terminal session: the engine's loading thread may make the context's machine too.
        JavaScriptEngine.prepareFirstContext()
        let services = ServiceRegistry()
        BuiltInServices.register(in: services, storage: try KeyValueStore.forApp(app), screenSize: { TerminalSize.query() ?? .standard })
        let runtime = ScriptRuntime(services: services, caller: ServiceCaller(name: app, permissions: nil))
        runtime.console = { level, text in
            if level == "warn" || level == "error" {
                FileHandleOutput.standardError(text)
            } else {
                FileHandleOutput.standardOutput(Array((text + "\n").utf8))
            }
        }
        runtime.onError = { error in FileHandleOutput.standardError(error.report) }
        runtime.runMain(path: script)
        runtime.loop.run(untilIdle: true)
        if runtime.failureCount > 0 { throw UserFailure() }
    }
}
