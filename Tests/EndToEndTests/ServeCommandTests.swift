import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `hybrid serve DIR --port 0` (SPEC §6) through the real binary: the first line gives the port,
/// bundles are fetched over loopback, and SIGTERM stops it with status 0.
final class ServeCommandTests: XCTestCase {
    var folder: URL!
    var served: URL { folder.appendingPathComponent("served") }
    var keys: String { folder.appendingPathComponent("keys").path }

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-serve")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let todo = CommandRunner.repository.appendingPathComponent("samples/todo")
        try FileManager.default.copyItem(at: todo, to: served.appendingPathComponent("todo"))
        try FileManager.default.copyItem(at: todo, to: served.appendingPathComponent("signed"))
        XCTAssertEqual(try CommandRunner.hybrid(["bundle", "keygen", "release", "--out-dir", keys]).status, 0)
        let signed = served.appendingPathComponent("signed").path
        for extra in [[], ["--out", served.appendingPathComponent("packed.hbundle").path]] {
            let pack = try CommandRunner.hybrid(["bundle", "pack", signed, "--key", "\(keys)/release.key"] + extra)
            XCTAssertEqual(pack.status, 0, pack.standardError)
        }
    }

    func testServesUntilSIGTERMAndExitsZero() throws {
        let server = try ServeProcess(arguments: ["serve", served.path, "--port", "0"], folder: folder)
        defer { server.kill() }
        let lines = try server.readLines(4)
        XCTAssertTrue(lines[0].hasPrefix("serving \(served.path) at http://127.0.0.1:"), lines[0])
        let base = try XCTUnwrap(lines[0].split(separator: " ").last.map(String.init))
        XCTAssertTrue(base.hasSuffix("/") && !base.hasSuffix(":0/"), base)
        XCTAssertEqual(Array(lines[1...]), [
            "  packed  todo 1.0.0  \(base)packed.hbundle",
            "  signed  todo 1.0.0  \(base)signed.hbundle",
            "  todo  todo 1.0.0  development: \(base)todo/",
        ])

        let index = try fetch(base)
        XCTAssertEqual(index.status, 200)
        let bundles = try XCTUnwrap((try JSONSerialization.jsonObject(with: index.body) as? [String: Any])?["bundles"] as? [[String: Any]])
        XCTAssertEqual(bundles.compactMap { $0["name"] as? String }, ["packed", "signed", "todo"])

        // The signed folder's archive verifies with the key it was signed with.
        let archive = try fetch(base + "signed.hbundle")
        XCTAssertEqual(archive.status, 200)
        let downloaded = folder.appendingPathComponent("downloaded.hbundle")
        try archive.body.write(to: downloaded)
        let verify = try CommandRunner.hybrid(["bundle", "verify", downloaded.path, "--pubkey", "\(keys)/release.pub"])
        XCTAssertEqual(verify.status, 0, verify.standardError)

        let unsigned = try fetch(base + "todo.hbundle")
        XCTAssertEqual(unsigned.status, 404)
        XCTAssertTrue(String(decoding: unsigned.body, as: UTF8.self).contains("development mode at \(base)todo/"))
        let files = try fetch(base + "todo/.files")
        XCTAssertEqual(files.status, 200)
        XCTAssertTrue(String(decoding: files.body, as: UTF8.self).contains(#""screens/home.json":{"size":"#))

        let status = try server.terminate(signal: SIGTERM)
        XCTAssertEqual(status, 0, server.standardError)
        XCTAssertTrue(server.standardError.contains("GET /signed.hbundle 200"), server.standardError)
        XCTAssertTrue(server.standardError.contains("GET /todo.hbundle 404"), server.standardError)
    }

    func testSIGINTStopsItToo() throws {
        let server = try ServeProcess(arguments: ["serve", served.path, "--port", "0"], folder: folder)
        defer { server.kill() }
        XCTAssertEqual(try server.readLines(1).count, 1)
        XCTAssertEqual(try server.terminate(signal: SIGINT), 0, server.standardError)
    }

    func testBadFolderAndBadFlags() throws {
        let missing = try CommandRunner.hybrid(["serve", folder.appendingPathComponent("nothing").path, "--port", "0"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.standardError, "hybrid serve: \(folder.appendingPathComponent("nothing").path): no such folder\n")
        XCTAssertEqual(missing.standardOutput, "")
        let file = try CommandRunner.hybrid(["serve", served.appendingPathComponent("packed.hbundle").path, "--port", "0"])
        XCTAssertEqual(file.status, 1)
        XCTAssertTrue(file.standardError.contains("not a folder"), file.standardError)
        XCTAssertEqual(try CommandRunner.hybrid(["serve", served.path, "--port", "eighty"]).status, 2)
        XCTAssertEqual(try CommandRunner.hybrid(["serve", served.path, "--port", "70000"]).status, 2)
        XCTAssertEqual(try CommandRunner.hybrid(["serve"]).status, 2)
    }

    /// `GET url` over loopback.
    private func fetch(_ url: String) throws -> (status: Int, body: Data) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Int, Data)?
        nonisolated(unsafe) var failure: (any Error)?
        URLSession.shared.dataTask(with: try XCTUnwrap(URL(string: url))) { data, response, error in
            if let error { failure = error }
            result = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data())
            done.signal()
        }.resume()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "no answer from \(url)")
        if let failure { throw failure }
        return try XCTUnwrap(result)
    }
}

/// A `hybrid` process left running: standard output through a pipe (to read its first lines),
/// standard error into a file.
private final class ServeProcess {
    private let process = Process()
    private let output = Pipe()
    private let errorURL: URL
    private var buffered = ""

    init(arguments: [String], folder: URL) throws {
        errorURL = folder.appendingPathComponent("serve-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = CommandRunner.productsFolder.appendingPathComponent("hybrid")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// The first `count` lines of standard output; fails when it ends before them.
    func readLines(_ count: Int) throws -> [String] {
        while buffered.filter({ $0 == "\n" }).count < count {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty {
                XCTFail("standard output ended after \(buffered.debugDescription); stderr: \(standardError)")
                break
            }
            buffered += String(decoding: data, as: UTF8.self)
        }
        return Array(buffered.split(separator: "\n", omittingEmptySubsequences: false).prefix(count).map(String.init))
    }

    /// Sends `signal` and returns the exit status (-1 if it was still running after 30 s).
    func terminate(signal: Int32) throws -> Int32 {
        Foundation.kill(process.processIdentifier, signal)
        for _ in 0..<300 where process.isRunning { usleep(100_000) }
        guard !process.isRunning else { return -1 }
        XCTAssertEqual(process.terminationReason, .exit, "ended by a signal rather than exiting")
        return process.terminationStatus
    }

    var standardError: String {
        (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
    }

    /// Makes sure nothing is left running.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}
