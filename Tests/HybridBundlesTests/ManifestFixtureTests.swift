import Foundation
import HybridBundles
import HybridJSON
import TestSupport
import XCTest

/// The schema and the decoder describe one format: Python's `jsonschema` accepts the valid
/// fixtures and rejects the broken ones, and the decoder agrees on every one, with the exact
/// diagnostics in each broken fixture's `.expected` file.
///
/// Set `UPDATE_MANIFEST_EXPECTED=1` to rewrite the `.expected` files (then read the diff).
final class ManifestFixtureTests: XCTestCase {
    /// The repository, found from this file (`Tests/HybridBundlesTests/…`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/Fixtures/manifests")

    private func fixtures(_ folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: Self.fixtures.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Decoded as `manifest.json`, the name a bundle gives it, so the lines read as users see them.
    private func load(_ url: URL) throws -> Loaded<BundleManifest> {
        BundleManifest.load(SourceText(name: "manifest.json", bytes: Array(try Data(contentsOf: url))))
    }

    func testSchemaCheckPasses() throws {
        let (status, output) = try PythonCheck.run("Tests/schema/check_manifest_schema.py", in: Self.repository)
        XCTAssertEqual(status, 0, output)
    }

    func testDecoderAcceptsValidFixtures() throws {
        let valid = try fixtures("valid")
        XCTAssertFalse(valid.isEmpty)
        for url in valid {
            let load = try load(url)
            XCTAssertNotNil(load.value, url.lastPathComponent)
            XCTAssertEqual(load.formattedDiagnostics, [], url.lastPathComponent)
        }
    }

    func testDecoderRejectsInvalidFixturesWithExpectedDiagnostics() throws {
        let invalid = try fixtures("invalid")
        XCTAssertGreaterThanOrEqual(invalid.count, 12)
        let update = ProcessInfo.processInfo.environment["UPDATE_MANIFEST_EXPECTED"] == "1"
        for url in invalid {
            let name = url.lastPathComponent
            let load = try load(url)
            XCTAssertNil(load.value, name)
            XCTAssertTrue(load.hasErrors, name)
            let lines = load.formattedDiagnostics.joined(separator: "\n") + "\n"
            let expectedURL = url.deletingPathExtension().appendingPathExtension("expected")
            if update {
                try lines.write(to: expectedURL, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            XCTAssertEqual(lines, expected, name)
        }
    }
}
