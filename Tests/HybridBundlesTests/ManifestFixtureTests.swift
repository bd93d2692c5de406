import Foundation
import HybridBundles
import HybridJSON
import TestSupport
import Testing

/// The schema and the decoder describe one format: Python's `jsonschema` accepts the valid
/// fixtures and rejects the broken ones, and the decoder agrees on every one, with the exact
/// diagnostics in each broken fixture's `.expected` file.
///
/// Set `UPDATE_MANIFEST_EXPECTED=1` to rewrite the `.expected` files (then read the diff).
@Suite struct ManifestFixtureTests {
    /// The repository, found from this file (`Tests/HybridBundlesTests/…`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/Fixtures/manifests")

    static func fixtures(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(at: Self.fixtures.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.map(\.lastPathComponent).sorted()
    }

    /// Decoded as `manifest.json`, the name a bundle gives it, so the lines read as users see them.
    private func load(_ url: URL) throws -> Loaded<BundleManifest> {
        BundleManifest.load(SourceText(name: "manifest.json", bytes: Array(try Data(contentsOf: url))))
    }

    private func url(_ folder: String, _ name: String) -> URL {
        Self.fixtures.appendingPathComponent(folder).appendingPathComponent(name)
    }

    @Test func theSchemaAgrees() throws {
        let (status, output) = try PythonCheck.run("Tests/schema/check_manifest_schema.py", in: Self.repository)
        #expect(status == 0, "\(output)")
    }

    @Test func thereAreFixturesOfEachKind() throws {
        #expect(try !Self.fixtures("valid").isEmpty)
        #expect(try Self.fixtures("invalid").count >= 12)
    }

    @Test(arguments: try fixtures("valid"))
    func decoderAccepts(valid name: String) throws {
        let load = try load(url("valid", name))
        #expect(load.value != nil)
        #expect(load.formattedDiagnostics == [])
    }

    @Test(arguments: try fixtures("invalid"))
    func decoderRejectsWithTheExpectedDiagnostics(invalid name: String) throws {
        let fixture = url("invalid", name)
        let load = try load(fixture)
        #expect(load.value == nil)
        #expect(load.hasErrors)
        let lines = load.formattedDiagnostics.joined(separator: "\n") + "\n"
        let expectedURL = fixture.deletingPathExtension().appendingPathExtension("expected")
        if ProcessInfo.processInfo.environment["UPDATE_MANIFEST_EXPECTED"] == "1" {
            try lines.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(lines == (try String(contentsOf: expectedURL, encoding: .utf8)))
    }
}
