import Foundation
import TestSupport
import XCTest

/// `hybrid init DIR` (SPEC §6) through the real binary: the bundle it makes validates and runs
/// at once, packs without the editor's files, and a folder with anything in it is refused.
final class InitCommandTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory("hybrid-init")
    }

    func testANewBundleValidatesRunsAndPacks() throws {
        let bundle = folder.appendingPathComponent("tea timer")
        let made = try CommandRunner.hybrid(["init", bundle.path])
        XCTAssertEqual(made.status, 0, made.standardError)
        XCTAssertEqual(made.standardOutput.split(separator: "\n").first, #"made \#(bundle.path): the bundle "tea-timer""#)
        for file in ["manifest.json", "screens/home.json", "main.js", "jsconfig.json", ".hbundleignore", "README.md",
                     "types/hybridterm.d.ts", "schemas/manifest.schema.json", "schemas/screen.schema.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(file).path), file)
        }
        let manifest = try String(contentsOf: bundle.appendingPathComponent("manifest.json"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(#""$schema": "schemas/manifest.schema.json""#) && manifest.contains(#""app": "tea-timer""#), manifest)
        let readme = try String(contentsOf: bundle.appendingPathComponent("README.md"), encoding: .utf8)
        for command in ["hybrid run .", "hybrid serve", "hybrid run http://127.0.0.1:8080/tea%20timer/", "hybrid bundle keygen tea-timer", "hybrid bundle pack . --key tea-timer.key"] {
            XCTAssertTrue(readme.contains(command), "the README says \(command)")
        }

        let validate = try CommandRunner.hybrid(["validate", bundle.path])
        XCTAssertEqual(validate.status, 0, validate.standardError)
        let environment = ["XDG_DATA_HOME": folder.path, "XDG_CACHE_HOME": folder.path]
        let run = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "40x10", "--keys", "enter enter enter"], environment: environment)
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = run.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        XCTAssertEqual(lines, ["Hello from tea-timer!", "The button was pressed 3 times.", "[ Press me ]", "enter press · r reset · q quit"], run.standardOutput)

        let keys = folder.appendingPathComponent("keys")
        XCTAssertEqual(try CommandRunner.hybrid(["bundle", "keygen", "tea-timer", "--out-dir", keys.path]).status, 0)
        let archive = folder.appendingPathComponent("tea-timer.hbundle")
        let pack = try CommandRunner.hybrid(["bundle", "pack", bundle.path, "--key", keys.appendingPathComponent("tea-timer.key").path, "--out", archive.path])
        XCTAssertEqual(pack.status, 0, pack.standardError)
        XCTAssertTrue(pack.standardOutput.contains("signed: 2 files listed"), "main.js and the screen, beside the manifest: \(pack.standardOutput)")
        let signed = try CommandRunner.hybrid(["run", archive.path, "--pubkey", keys.appendingPathComponent("tea-timer.pub").path, "--headless", "--size", "40x10"],
                                              environment: environment)
        XCTAssertEqual(signed.status, 0, signed.standardError)
    }

    func testAFolderWithAnythingInItIsRefused() throws {
        let taken = folder.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
        try "mine".write(to: taken.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let refused = try CommandRunner.hybrid(["init", taken.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.standardError, "hybrid init: \(taken.path) is not empty (1 entry); it makes a bundle in a new or empty folder, so nothing is overwritten\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: taken.path), ["notes.txt"])
        XCTAssertEqual(try String(contentsOf: taken.appendingPathComponent("notes.txt"), encoding: .utf8), "mine")

        let file = folder.appendingPathComponent("file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try CommandRunner.hybrid(["init", file.path]).status, 1)

        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertEqual(try CommandRunner.hybrid(["init", empty.path]).status, 0, "an empty folder is fine")
    }
}
