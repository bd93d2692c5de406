import HybridBundles
import XCTest

/// `runtime` requirements: each operator's range, including where prereleases fall.
final class VersionRequirementTests: XCTestCase {
    private func check(_ requirement: String, accepts: [String], refuses: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let parsed = try VersionRequirement(parsing: requirement)
        for text in accepts {
            XCTAssertTrue(parsed.satisfies(SemanticVersion(text)!), "\(requirement) should accept \(text)", file: file, line: line)
        }
        for text in refuses {
            XCTAssertFalse(parsed.satisfies(SemanticVersion(text)!), "\(requirement) should refuse \(text)", file: file, line: line)
        }
    }

    func testParsesEveryOperator() throws {
        XCTAssertEqual(try VersionRequirement(parsing: ">=1.0.0"), VersionRequirement(.atLeast, SemanticVersion(major: 1, minor: 0, patch: 0)))
        XCTAssertEqual(try VersionRequirement(parsing: ">1.0.0").comparison, .greaterThan)
        XCTAssertEqual(try VersionRequirement(parsing: "=1.0.0").comparison, .exactly)
        XCTAssertEqual(try VersionRequirement(parsing: "1.0.0").comparison, .exactly)
        XCTAssertEqual(try VersionRequirement(parsing: "^1.2.0").comparison, .compatible)
        XCTAssertEqual(try VersionRequirement(parsing: "~1.2.0-beta").version, SemanticVersion("1.2.0-beta"))
        XCTAssertEqual(VersionRequirement("1.0.0")?.description, "=1.0.0")
        XCTAssertEqual(VersionRequirement("^0.3.1")?.description, "^0.3.1")
    }

    func testRejectsWithReasons() {
        let cases: [(String, String)] = [
            ("<=1.0.0", "expected >=, >, =, ^, ~ or a bare version, like \">=1.0.0\""),
            ("latest", "expected >=, >, =, ^, ~ or a bare version, like \">=1.0.0\""),
            (">= 1.0.0", "write it without spaces, like \">=1.0.0\""),
            (">=1.0", "expected MAJOR.MINOR.PATCH with an optional -prerelease, like \"1.4.2\" or \"2.0.0-beta.1\""),
            ("^01.0.0", "\"01\" has a leading zero"),
            ("", "expected MAJOR.MINOR.PATCH with an optional -prerelease, like \"1.4.2\" or \"2.0.0-beta.1\""),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try VersionRequirement(parsing: text), text) { error in
                XCTAssertEqual((error as? VersionSyntaxError)?.reason, reason, text)
            }
            XCTAssertNil(VersionRequirement(text), text)
        }
    }

    func testComparisons() throws {
        try check(">=1.0.0", accepts: ["1.0.0", "1.0.1", "2.5.0", "1.1.0-beta"], refuses: ["0.9.9", "1.0.0-rc.1"])
        try check(">1.0.0", accepts: ["1.0.1", "1.0.1-alpha"], refuses: ["1.0.0", "0.1.0", "1.0.0-rc.1"])
        try check("=1.2.3", accepts: ["1.2.3"], refuses: ["1.2.4", "1.2.3-rc.1", "1.2.2"])
        try check("1.2.3", accepts: ["1.2.3"], refuses: ["1.2.4"])
    }

    func testCaretKeepsTheLeftmostNonZeroPart() throws {
        try check("^1.2.3", accepts: ["1.2.3", "1.2.4", "1.9.0", "1.99.99-rc.1"], refuses: ["1.2.2", "2.0.0", "2.0.0-alpha", "2.0.0-0", "1.2.3-beta"])
        try check("^0.2.3", accepts: ["0.2.3", "0.2.9"], refuses: ["0.3.0", "0.3.0-alpha", "0.2.2", "1.0.0"])
        try check("^0.0.3", accepts: ["0.0.3"], refuses: ["0.0.4", "0.0.4-alpha", "0.1.0", "0.0.2"])
        try check("^1.0.0-beta.2", accepts: ["1.0.0-beta.2", "1.0.0-beta.10", "1.0.0", "1.5.0"], refuses: ["1.0.0-beta.1", "1.0.0-alpha", "2.0.0"])
    }

    func testTildeKeepsTheMinorVersion() throws {
        try check("~1.2.3", accepts: ["1.2.3", "1.2.99"], refuses: ["1.3.0", "1.3.0-alpha", "1.2.2", "2.0.0"])
        try check("~0.2.3", accepts: ["0.2.3", "0.2.4"], refuses: ["0.3.0", "0.2.2"])
        try check("~0.0.3", accepts: ["0.0.3", "0.0.9"], refuses: ["0.1.0", "0.0.2"])
    }

    func testNoOverflowAtTheTop() throws {
        let top = "\(Int.max).0.0"
        try check("^" + top, accepts: [top, "\(Int.max).5.0"], refuses: ["1.0.0"])
        try check("~0.\(Int.max).0", accepts: ["0.\(Int.max).7"], refuses: ["0.0.1"])
    }
}
