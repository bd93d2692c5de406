import Foundation
import HybridFuzz
import Testing

/// Every input the fuzzers (`scripts/fuzz.sh`) ever crashed or hung on, kept in
/// `Tests/Fixtures/fuzz/TARGET/` and fed to its target again, and the seeds every run starts
/// from: all must return.
@Suite struct FuzzRegressionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `TARGET/FILE` for every kept case.
    static func cases() throws -> [String] {
        let root = repository.appendingPathComponent("Tests/Fixtures/fuzz")
        var cases: [String] = []
        for target in FuzzTarget.allCases {
            let folder = root.appendingPathComponent(target.rawValue)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            cases += names.filter { !$0.hasPrefix(".") }.sorted().map { target.rawValue + "/" + $0 }
        }
        return cases
    }

    @Test(arguments: try cases())
    func aKeptCaseReturns(_ name: String) throws {
        let target = try #require(FuzzTarget(rawValue: String(name.prefix { $0 != "/" })))
        target.run(Array(try Data(contentsOf: Self.repository.appendingPathComponent("Tests/Fixtures/fuzz/" + name))))
    }

    @Test(arguments: FuzzTarget.allCases)
    func theSamplesPassEveryTarget(_ target: FuzzTarget) throws {
        let samples = Self.repository.appendingPathComponent("samples")
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted() where name.hasSuffix(".json") {
            target.run(Array(try Data(contentsOf: samples.appendingPathComponent(name))))
        }
    }
}
