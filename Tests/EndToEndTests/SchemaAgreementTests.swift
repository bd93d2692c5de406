import Foundation
import TestSupport
import XCTest

/// The JSON Schema and the decoder describe one format: a real validator (Python's
/// `jsonschema`) accepts every sample and rejects every fixture the schema can see, and the
/// decoder rejects every one of those fixtures too.
final class SchemaAgreementTests: XCTestCase {
    func testSchemaAcceptsSamplesAndRejectsBrokenDocuments() throws {
        let (status, output) = try PythonCheck.run("Tests/schema/check_schema.py", in: CommandRunner.repository)
        XCTAssertEqual(status, 0, output)
    }

    /// The theme schema (named styles, referring to the screen schema's) takes the samples'
    /// themes and refuses what the decoder refuses.
    func testThemeSchemaAcceptsSampleThemesAndRejectsBrokenOnes() throws {
        let (status, output) = try PythonCheck.run("Tests/schema/check_theme_schema.py", in: CommandRunner.repository)
        XCTAssertEqual(status, 0, output)
    }

    func testDecoderRejectsWhatTheSchemaRejects() throws {
        let list = try String(contentsOf: CommandRunner.repository.appendingPathComponent("Tests/Fixtures/invalid/schema-detectable.txt"), encoding: .utf8)
        let names = list.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        XCTAssertGreaterThanOrEqual(names.count, 20)
        for name in names {
            let result = try CommandRunner.hybrid(["validate", "Tests/Fixtures/invalid/\(name)"])
            XCTAssertEqual(result.status, 1, "\(name) is rejected by the schema but accepted by the decoder")
        }
    }

    func testEverySampleValidates() throws {
        let samples = try FileManager.default.contentsOfDirectory(atPath: CommandRunner.repository.appendingPathComponent("samples").path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "samples/\($0)" }
        let result = try CommandRunner.hybrid(["validate"] + samples)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardError, "")
    }
}
