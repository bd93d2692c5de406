import HybridBundles
import XCTest

/// Parsing and precedence per semver.org, which "strictly newer" updates rely on.
final class SemanticVersionTests: XCTestCase {
    func testParsesReleasesAndPrereleases() throws {
        XCTAssertEqual(SemanticVersion("1.4.2"), SemanticVersion(major: 1, minor: 4, patch: 2))
        XCTAssertEqual(SemanticVersion("2.0.0-beta.1"), SemanticVersion(major: 2, minor: 0, patch: 0, prerelease: ["beta", "1"]))
        XCTAssertEqual(SemanticVersion("0.0.0-x-y.0a")?.prerelease, ["x-y", "0a"])
        XCTAssertEqual(SemanticVersion("10.20.30")?.description, "10.20.30")
        XCTAssertEqual(SemanticVersion("1.0.0-rc.1")?.description, "1.0.0-rc.1")
        XCTAssertTrue(SemanticVersion("1.0.0-rc.1")!.isPrerelease)
    }

    func testRejectsWithReasons() {
        let shape = "expected MAJOR.MINOR.PATCH with an optional -prerelease, like \"1.4.2\" or \"2.0.0-beta.1\""
        let cases: [(String, String)] = [
            ("1.4", shape),
            ("1.4.2.0", shape),
            ("", shape),
            ("1..2", shape),
            ("a.b.c", shape),
            ("-1.0.0", shape),
            ("1.04.2", "\"04\" has a leading zero"),
            ("v1.0.0", "write it without the leading \"v\""),
            ("1.0.0+build.5", "build metadata (\"+…\") is not allowed, so that versions always order"),
            ("1.0.0-", "a prerelease identifier is empty"),
            ("1.0.0-a..b", "a prerelease identifier is empty"),
            ("1.0.0-01", "the prerelease number \"01\" has a leading zero"),
            ("1.0.0-bet@", "prerelease identifiers use only letters, digits and \"-\""),
            ("99999999999999999999.0.0", "\"99999999999999999999\" is too large"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try SemanticVersion(parsing: text), text) { error in
                XCTAssertEqual((error as? VersionSyntaxError)?.reason, reason, text)
                XCTAssertEqual("\(error)", "invalid version \"\(text)\": \(reason)", text)
            }
            XCTAssertNil(SemanticVersion(text), text)
        }
    }

    func testOrdersAsSemverOrgExample() throws {
        // semver.org §11's own list, in increasing precedence.
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
                       "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0", "2.1.0", "2.1.1", "10.0.0"]
        let versions = try ordered.map { try SemanticVersion(parsing: $0) }
        for (index, lower) in versions.enumerated() {
            for higher in versions[(index + 1)...] {
                XCTAssertLessThan(lower, higher)
                XCTAssertGreaterThan(higher, lower)
                XCTAssertNotEqual(lower, higher)
            }
        }
        XCTAssertEqual(versions.shuffled().sorted(), versions)
    }

    func testPrereleaseIdentifierRules() throws {
        func less(_ a: String, _ b: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertLessThan(SemanticVersion(a)!, SemanticVersion(b)!, "\(a) < \(b)", file: file, line: line)
            XCTAssertFalse(SemanticVersion(b)! < SemanticVersion(a)!, "\(b) < \(a)", file: file, line: line)
        }
        less("1.0.0-2", "1.0.0-10")                  // numbers compare as numbers
        less("1.0.0-99", "1.0.0-a")                  // numbers before alphanumerics
        less("1.0.0-Z", "1.0.0-a")                   // alphanumerics in ASCII order
        less("1.0.0-alpha", "1.0.0-alpha.0")         // fewer identifiers first when equal so far
        less("1.0.0-9", "1.0.0-18446744073709551616") // numbers beyond Int still compare
        less("1.0.0-rc.1", "1.0.0")                  // a prerelease before its release
        less("1.0.0", "1.0.1-alpha")                 // but after the previous release
        XCTAssertEqual(SemanticVersion("1.0.0-a.1"), SemanticVersion("1.0.0-a.1"))
        XCTAssertFalse(SemanticVersion("1.0.0")! < SemanticVersion("1.0.0")!)
    }
}
