import Foundation
import HybridBundles
import XCTest
import TestSupport
import ZIPFoundation

/// A temporary folder with a small bundle (`shop`) and helpers to pack, tamper and craft
/// archives, shared by the signing tests.
class SigningTestCase: XCTestCase {
    var base: URL!
    var folder: String { base.appendingPathComponent("shop").path }
    var staging: String { base.appendingPathComponent("staging").path }
    let key = BundleKey()

    let manifest = """
    {
      "$schema": "../schemas/manifest.schema.json",
      "app": "shop",
      "version": "1.4.2",
      "entry": "main.js",
      "start": "home",
      "screens": { "home": "screens/home.json" },
      "permissions": ["storage"]
    }

    """
    let screen = #"{ "format": 1, "body": { "type": "text", "text": "Hello" } }"#
    let script = "hybrid.ready();\n"

    override func setUpWithError() throws {
        base = try makeTemporaryDirectory("signing-tests")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try write("manifest.json", manifest)
        try write("main.js", script)
        try write("screens/home.json", screen)
    }

    /// Writes `text` at bundle path `relative` in the bundle folder.
    func write(_ relative: String, _ text: String) throws {
        let url = URL(fileURLWithPath: folder).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: folder + "/" + relative, encoding: .utf8)
    }

    var verifier: BundleVerifier { BundleVerifier(trustedKeys: [key.publicKey]) }

    /// Signs the folder in place, and zips it to `base/shop.hbundle` when `archive` is set.
    @discardableResult
    func pack(archive: Bool = false) throws -> BundleSigner.Result {
        var result = try BundleSigner(key: key).pack(folder: folder)
        if archive {
            try BundleSigner.writeArchive(ofSignedFolder: folder, to: archivePath)
            result.archivePath = archivePath
        }
        return result
    }

    var archivePath: String { base.appendingPathComponent("shop.hbundle").path }

    /// The error `body` throws, failing when it throws none or another type.
    func bundleError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> BundleError? {
        do {
            _ = try body()
            XCTFail("expected a BundleError", file: file, line: line)
        } catch let error as BundleError {
            return error
        } catch {
            XCTFail("expected a BundleError, got \(error)", file: file, line: line)
        }
        return nil
    }

    typealias CraftedEntry = CraftedArchive.Entry

    /// Writes a ZIP at `path` holding exactly `entries`, through ZIPFoundation.
    func craftArchive(at path: String, _ entries: [CraftedEntry]) throws {
        try CraftedArchive.write(at: path, entries)
    }

    /// The signed folder's entries (`manifest.json`, `manifest.sig`, then `files`), with
    /// `changes` applied and the `dropping` entries left out, ready for `craftArchive`.
    func signedEntries(_ changes: [String: [UInt8]] = [:], dropping: Set<String> = []) throws -> [CraftedEntry] {
        let result = try pack()
        var entries: [CraftedEntry] = []
        for name in ["manifest.json", "manifest.sig"] + result.files {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            if dropping.contains(name) { continue }
            if let change = changes[name] {
                entries.append(.file(name, change))
            } else {
                entries.append(.file(name, bytes))
            }
        }
        return entries
    }

    /// What is left in the staging parent (nothing after a failed verification).
    func stagingLeftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: staging)
    }
}
