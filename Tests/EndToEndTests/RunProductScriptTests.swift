import Foundation
import TestSupport
import XCTest

/// `scripts/run-product.sh` (behind `hybrid.sh`) builds a product whose sources changed, but
/// never waits on a SwiftPM that is one of its own callers, as `swift test` is when a test runs
/// the README's command: that build would wait for the tests and the tests for it, forever.
/// Each case runs the script in a copy of the repository's layout with a fake product, a fake
/// set-up script that stands for the build, and a lock file naming a given process.
final class RunProductScriptTests: XCTestCase {
    private struct Run {
        let status: Int32
        let output: String
        let errors: String
        /// The copy's build folder, as the script names it.
        let buildFolder: String
    }

    /// Runs the copied script for a product that is `built` (older than a changed source) or
    /// missing, with the build folder's lock held by `lockHolder`.
    private func run(built: Bool, lockHolder: Int32) throws -> Run {
        let repository = try TemporaryDirectory("run-product")
        let root = repository.url
        let files = FileManager.default
        for folder in ["scripts", "Sources", "Plugins", ".build/debug"] {
            try files.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try files.copyItem(at: CommandRunner.repository.appendingPathComponent("scripts/run-product.sh"),
                           to: root.appendingPathComponent("scripts/run-product.sh"))
        // Stands for the set-up and build: what runs first when the script decides to build.
        try write("#!/usr/bin/env bash\necho building >&2\nexit 3\n", to: root.appendingPathComponent("scripts/setup.sh"))
        if built {
            try write("#!/usr/bin/env bash\necho \"ran $*\"\n", to: root.appendingPathComponent(".build/debug/tool"))
            try files.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)],
                                    ofItemAtPath: root.appendingPathComponent(".build/debug/tool").path)
        }
        try write("// changed since the product was built\n", to: root.appendingPathComponent("Sources/changed.swift"))
        try write("\(lockHolder)", to: root.appendingPathComponent(".build/.lock"), executable: false)

        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/run-product.sh")
        process.arguments = ["tool", "a", "b"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
                   errors: String(decoding: complained, as: UTF8.self), buildFolder: root.resolvingSymlinksInPath().path + "/.build")
    }

    private func write(_ text: String, to url: URL, executable: Bool = true) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
    }

    func testAStaleProductRunsAsBuiltWhenTheCallingSwiftPMHoldsTheBuildFolder() throws {
        // This test process is the script's parent, as `swift test`'s runner would be.
        let run = try run(built: true, lockHolder: ProcessInfo.processInfo.processIdentifier)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.output, "ran a b\n")
        XCTAssertEqual(run.errors, "tool: sources changed since it was built, but the SwiftPM that runs this holds "
            + "\(run.buildFolder); running it as built\n")
    }

    func testAMissingProductIsAnErrorWhenTheCallingSwiftPMHoldsTheBuildFolder() throws {
        let run = try run(built: false, lockHolder: ProcessInfo.processInfo.processIdentifier)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.output, "")
        XCTAssertEqual(run.errors, "tool: not built, and the SwiftPM that runs this holds \(run.buildFolder): "
            + "build it first (swift build --product tool)\n")
    }

    func testAStaleProductIsBuiltWhenTheLockIsAnyoneElses() throws {
        // Process 1 is no caller of the script: another SwiftPM at work is waited for, as usual.
        for holder: Int32 in [1, 0] {
            let run = try run(built: true, lockHolder: holder)
            XCTAssertEqual(run.status, 3, "the set-up and build ran")
            XCTAssertEqual(run.errors, "building\n")
        }
    }
}
