import Foundation
import TestSupport
import XCTest

/// `hybrid cache` (SPEC §6) and boot verdicts through the real binary: what `hybrid run`
/// installed is listed with its boot state, cleared, and forgiven; an interrupt while a version
/// starts leaves it unjudged.
final class CacheCommandTests: XCTestCase {
    var folder: URL!
    var environment: [String: String] {
        ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path]
    }
    var key: String { folder.appendingPathComponent("keys/release").path }

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-cache")
        let keygen = try CommandRunner.hybrid(["bundle", "keygen", "release", "--out-dir", folder.appendingPathComponent("keys").path])
        XCTAssertEqual(keygen.status, 0, keygen.standardError)
    }

    /// A signed archive of `shop` at `version` whose entry script is `script`.
    private func archive(_ version: String, script: String) throws -> String {
        let bundle = folder.appendingPathComponent("shop-\(version)")
        let files = [
            "manifest.json": #"{"app": "shop", "version": "\#(version)", "entry": "main.js", "start": "home", "screens": {"home": "screens/home.json"}}"#,
            "main.js": script,
            "screens/home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "v\#(version)"}}"#,
        ]
        for (path, text) in files {
            let url = bundle.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let archive = bundle.path + ".hbundle"
        let pack = try CommandRunner.hybrid(["bundle", "pack", bundle.path, "--key", key + ".key", "--out", archive])
        XCTAssertEqual(pack.status, 0, pack.standardError)
        return archive
    }

    private func hybrid(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.hybrid(arguments, environment: environment)
    }

    private func run(_ archive: String, readyTimeout: String = "1") throws -> CommandRunner.Result {
        try hybrid(["run", archive, "--headless", "--pubkey", key + ".pub", "--ready-timeout", readyTimeout])
    }

    func testListClearAndForgetBad() throws {
        XCTAssertEqual(try hybrid(["cache", "list"]).standardOutput, "nothing is installed in \(environment["XDG_CACHE_HOME"]!)/hybridterm\n")
        XCTAssertEqual(try run(try archive("1.0.0", script: "hybrid.ready();\n")).status, 0)
        let failing = try run(try archive("1.1.0", script: "throw new Error('boom');\n"))
        XCTAssertTrue(failing.standardOutput.hasPrefix("v1.0.0"), failing.standardOutput)
        let list = try hybrid(["cache", "list"])
        XCTAssertEqual(list.status, 0, list.standardError)
        let lines = list.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, list.standardOutput)
        XCTAssertTrue(lines[0].hasPrefix("shop 1.1.0 bad (removed): ") && lines[0].contains("boom"), lines[0])
        XCTAssertEqual(lines[1], "shop 1.0.0 healthy")

        let notBad = try hybrid(["cache", "forget-bad", "shop", "1.0.0"])
        XCTAssertEqual(notBad.status, 1)
        XCTAssertEqual(notBad.standardError, "hybrid cache: shop 1.0.0: is not marked bad\n")
        XCTAssertEqual(try hybrid(["cache", "forget-bad", "shop", "1.1.0"]).status, 0)
        XCTAssertEqual(try hybrid(["cache", "list", "shop"]).standardOutput, "shop 1.0.0 healthy\n")

        XCTAssertEqual(try hybrid(["cache", "clear", "shop", "1.0.0"]).status, 0)
        XCTAssertEqual(try hybrid(["cache", "list", "shop"]).standardOutput, "")
        XCTAssertEqual(try hybrid(["cache", "clear", "shop"]).status, 0)
        let gone = try hybrid(["cache", "list", "shop"])
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(gone.standardError.hasPrefix("hybrid cache: shop: no such app in the cache"), gone.standardError)
    }

    func testUsageErrorsExitTwo() throws {
        for arguments in [[], ["cache"], ["bundle"], ["cache", "forget-bad", "shop", "one"], ["cache", "clear"]] {
            let result = try hybrid(arguments)
            XCTAssertEqual(result.status, 2, "hybrid \(arguments): \(result.standardError)")
            XCTAssertTrue(result.standardError.contains("USAGE") || result.standardError.contains("Usage"), result.standardError)
        }
    }

    /// SIGINT, SIGTERM or SIGHUP while a new version starts (its start marker is on disk): the
    /// process ends, and the version is not condemned — the next launch starts it again.
    func testAnInterruptWhileAVersionStartsDoesNotMarkItBad() throws {
        // Never ready, with all the time in the world: the start is still watched when the signal comes.
        let archive = try archive("1.0.0", script: "// never ready\n")
        let marker = folder.appendingPathComponent("cache/hybridterm/shop/.starting-1.0.0").path
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let process = try CommandRunner.start("hybrid", ["run", archive, "--headless", "--pubkey", key + ".pub", "--ready-timeout", "1000000"],
                                                  in: folder, environment: environment,
                                                  output: folder.appendingPathComponent("out"), errors: folder.appendingPathComponent("err"))
            let giveUp = Date(timeIntervalSinceNow: 60)
            while !FileManager.default.fileExists(atPath: marker) && process.isRunning && Date() < giveUp { usleep(5_000) }
            XCTAssertTrue(FileManager.default.fileExists(atPath: marker), "signal \(signal): the start never began")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "signal \(signal)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "signal \(signal): the marker went with the interrupt")
            XCTAssertEqual(try hybrid(["cache", "list", "shop"]).standardOutput, "shop 1.0.0 new\n", "signal \(signal)")
        }
    }

    func testKeygenWithAOneLetterName() throws {
        let result = try CommandRunner.run("hybrid", ["bundle", "keygen", "k", "--out-dir", folder.appendingPathComponent("keys").path])
        XCTAssertEqual(result.status, 0, result.standardError)
        let bare = try CommandRunner.start("hybrid", ["bundle", "keygen", "k"], in: folder,
                                           output: folder.appendingPathComponent("out"), errors: folder.appendingPathComponent("err"))
        bare.waitUntilExit()
        XCTAssertEqual(bare.terminationStatus, 0, (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("k.key").path))
    }
}
