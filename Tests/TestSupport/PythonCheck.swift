import Foundation

/// Runs one of the repository's Python checks (`Tests/schema/*.py`, `Tests/python/*.py`) the
/// way CI would.
public enum PythonCheck {
    /// Runs `script` with `arguments` in `repository`, with a Python that can import `module`
    /// (`scripts/setup-tests.sh` makes sure one can: `jsonschema` and `pyte` come from Debian);
    /// returns its exit status and its output (both streams).
    public static func run(_ script: String, _ arguments: [String] = [], in repository: URL,
                           importing module: String = "jsonschema") throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python(importing: module), script] + arguments
        process.currentDirectoryURL = repository
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var interpreters: [String: String] = [:]

    /// The first of `python3` on PATH (a virtual environment, pyenv) and Debian's own that can
    /// import `module`; `python3` when none can, so the check fails saying so.
    public static func python(importing module: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let known = interpreters[module] { return known }
        var found = "python3"
        for candidate in ["python3", "/usr/bin/python3"] {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            probe.arguments = [candidate, "-c", "import \(module)"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { continue }
            probe.waitUntilExit()
            if probe.terminationStatus == 0 {
                found = candidate
                break
            }
        }
        interpreters[module] = found
        return found
    }
}
