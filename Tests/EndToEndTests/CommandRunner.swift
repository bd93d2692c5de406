import Foundation
import TestSupport
import XCTest

/// Runs the built `hybrid` binary the way a user does, capturing its streams and status.
struct CommandRunner {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// Killed after the `timeout` it was run with.
        var timedOut = false
    }

    /// The repository root (tests run against its samples and fixtures).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder SwiftPM built the products into (beside the test bundle).
    static var productsFolder: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    static func hybrid(_ arguments: [String], environment: [String: String] = [:], input: Data? = nil, timeout: Double? = nil) throws -> Result {
        try run("hybrid", arguments, environment: environment, input: input, timeout: timeout)
    }

    /// Runs the built product `program` (`hybrid`, `shop-demo`) in the repository root, with
    /// `input` on its standard input (none by default). With a `timeout` (seconds), a child still
    /// running then is killed and `Result.timedOut` says so: a hang fails the test, not the run.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                    input: Data? = nil, timeout: Double? = nil) throws -> Result {
        // Files rather than pipes: a large frame can never fill a pipe and stall the child.
        let folder = try TemporaryDirectory("hybrid-run")
        defer { folder.remove() }
        let outputURL = folder.url.appendingPathComponent("stdout")
        let errorURL = folder.url.appendingPathComponent("stderr")
        var inputURL: URL?
        if let input {
            inputURL = folder.url.appendingPathComponent("stdin")
            try input.write(to: inputURL!)
        }
        let process = try start(program, arguments, in: repository, environment: environment, input: inputURL, output: outputURL, errors: errorURL)
        var timedOut = false
        if let timeout {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
            }
        }
        process.waitUntilExit()
        let outputData = try Data(contentsOf: outputURL)
        let errorData = try Data(contentsOf: errorURL)
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self), timedOut: timedOut)
    }

    /// Starts the built product `program` in `folder` with its standard streams going to the
    /// files `output` and `errors` (created empty), reading `input` (nothing when nil), and
    /// returns it running.
    static func start(_ program: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:],
                      input: URL? = nil, output: URL, errors: URL) throws -> Process {
        try start(executable: productsFolder.appendingPathComponent(program), arguments, in: folder, environment: environment,
                  input: input, output: output, errors: errors)
    }

    /// `start`, for any executable (the README's `hybrid.sh`).
    static func start(executable: URL, _ arguments: [String], in folder: URL, environment: [String: String] = [:],
                      input: URL? = nil, output: URL, errors: URL) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"].merging(environment) { $1 }) { $1 }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Compares `actual` with the golden file, or writes it when `UPDATE_GOLDENS=1`.
    static func assertGolden(_ actual: String, _ golden: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        if let mismatch = try goldenMismatch(actual, golden) { XCTFail(mismatch, file: file, line: line) }
    }

    /// What differs between `actual` and the golden file (nil when nothing does); writes the
    /// file instead when `UPDATE_GOLDENS=1`.
    static func goldenMismatch(_ actual: String, _ golden: URL) throws -> String? {
        if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: golden, atomically: true, encoding: .utf8)
            return nil
        }
        guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
            return "missing golden \(golden.path); run with UPDATE_GOLDENS=1 to create it"
        }
        guard actual != expected else { return nil }
        let actualLines = actual.components(separatedBy: "\n")
        let expectedLines = expected.components(separatedBy: "\n")
        let firstDifference = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
        let place = firstDifference.map { "line \($0.offset + 1):\n  expected: \($0.element.1)\n  actual:   \($0.element.0)" }
            ?? "line counts differ (\(expectedLines.count) expected, \(actualLines.count) actual)"
        return "\(golden.lastPathComponent) differs at \(place)\n--- actual ---\n\(actual)"
    }
}
