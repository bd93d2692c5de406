import ArgumentParser
import HybridTerm

/// `hybrid validate FILE…`: reports every problem in screen documents.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check screen documents and report every problem as FILE:LINE:COL: PATH: message."
    )

    @Argument(help: "Screen documents (.json) to check.")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            let load = ScreenDocument.load(contentsOf: file)
            for line in load.formattedDiagnostics {
                FileHandleOutput.standardError(line)
            }
            if load.hasErrors || load.document == nil {
                failed = true
            } else {
                print("\(file): ok")
            }
        }
        if failed { throw UserFailure() }
    }
}
