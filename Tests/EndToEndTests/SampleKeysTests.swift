import Foundation
import HybridJSON
import Testing
import TestSupport

/// Every key a sample screen binds does something without a problem (issue 12: keys that only
/// produced "no script handler" on screens that have no script, or opened screens that do not
/// exist), and so does Enter on what each screen focuses first.
@Suite struct SampleKeysTests {
    @Test(arguments: try SampleGoldenTests.samples())
    func everyBoundKeyWorks(sample: String) throws {
        let path = "samples/" + sample
        let text = try String(contentsOf: CommandRunner.repository.appendingPathComponent(path), encoding: .utf8)
        let keys = (try JSONParser.parse(text).plain["keys"]?.objectValue.map { $0.map(\.key) } ?? []) + ["enter"]
        for key in keys {
            let data = try TemporaryDirectory("hybrid-sample-keys")
            let result = try CommandRunner.hybrid(["run", path, "--headless", "--size", "100x30", "--keys", key],
                                                  environment: ["XDG_DATA_HOME": data.path])
            #expect(result.status == 0, "\(sample), key \(key): \(result.standardError)")
            #expect(result.standardError.isEmpty, "\(sample), key \(key): \(result.standardError)")
        }
    }
}
