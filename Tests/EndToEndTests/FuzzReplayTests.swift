import Foundation
import Testing

/// `hybrid-fuzz`, built as the README says, replays what the fuzzers found.
@Suite struct FuzzReplayTests {
    @Test func aKeptCaseReplaysAndReturns() throws {
        let kept = "Tests/Fixtures/fuzz/screen/style-width-1e19.json"
        let result = try CommandRunner.run("hybrid-fuzz", ["screen", kept], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == kept + ": ok\n")
    }

    @Test func anUnknownTargetIsAUsageError() throws {
        let result = try CommandRunner.run("hybrid-fuzz", ["nonsense"], timeout: 60)
        #expect(result.status == 2)
        #expect(result.standardError == "hybrid-fuzz: name a target: json, screen, expression, manifest, archive, apis, theme, terminal\n")
    }
}
