import Foundation

/// Runs one of the repository's Python checks (`Tests/schema/*.py`) the way CI would.
public enum PythonCheck {
    /// Runs `python3 script` in `repository`; returns its exit status and its output (both streams).
    public static func run(_ script: String, in repository: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script]
        process.currentDirectoryURL = repository
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
