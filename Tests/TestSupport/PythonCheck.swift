import Foundation

/// Runs one of the repository's Python checks (`Tests/schema/*.py`) the way CI would.
public enum PythonCheck {
    /// Runs `script` with `arguments` and a Python that has `jsonschema` (`scripts/setup-tests.sh`
    /// makes sure one does) in `repository`; returns its exit status and its output (both streams).
    public static func run(_ script: String, _ arguments: [String] = [], in repository: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script] + arguments
        process.currentDirectoryURL = repository
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The first of `python3` on PATH (a virtual environment, pyenv) and Debian's own that can
    /// import `jsonschema`; `python3` when none can, so the check fails saying so.
    static let python: String = {
        for candidate in ["python3", "/usr/bin/python3"] {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            probe.arguments = [candidate, "-c", "import jsonschema"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { continue }
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return candidate }
        }
        return "python3"
    }()
}
