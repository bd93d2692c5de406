import Foundation
import TestSupport
import XCTest

/// `hybrid expr` run as a user runs it: JSON Lines on standard input, one answer line each.
final class ExprCommandTests: XCTestCase {
    /// Runs `hybrid expr` with `input` on standard input.
    private func expr(_ input: String) throws -> CommandRunner.Result {
        try CommandRunner.hybrid(["expr"], input: Data(input.utf8))
    }

    func testAnswersEachLineInOrder() throws {
        let input = """
        {"expression": "@{a + b * 2 > c ? 'x' : 'y'}", "variables": [{"name": "a", "type": "integer", "value": 1}, {"name": "b", "type": "integer", "value": 2}, {"name": "c", "type": "integer", "value": 3}]}
        {"expression": "@{a + 1}", "variables": [{"name": "a", "type": "integer", "value": 1}]}
        {"expression": "@{2 ? 1 : 0}"}
        {"expression": "@{1.5 * 2}"}
        {"expression": "Hi @{toUpperCase(user.name)}", "variables": [{"name": "user", "type": "dict", "value": {"name": "Ada"}}]}
        {"expression": "@{formatDateAsUTC(t, 'dd/MM/yyyy')}", "variables": [{"name": "t", "type": "datetime", "value": "1970-02-15 12:34:56"}]}
        {"expression": "@{toColor('#f00')}"}
        {"expression": "@{items.filter(small)}", "variables": [{"name": "items", "type": "array", "value": [1, 5, 2]}], "functions": [{"name": "small", "arguments": [{"name": "n", "type": "integer"}], "body": "@{n < 3}"}]}
        """
        let result = try expr(input + "\n")
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(result.standardOutput.split(separator: "\n").map(String.init), [
            #"{"type": "string", "value": "x"}"#,
            #"{"type": "integer", "value": 2}"#,
            #"{"type": "error", "value": "Failed to evaluate [2 ? 1 : 0]. Ternary must be called with a Boolean value as a condition."}"#,
            #"{"type": "number", "value": 3.0}"#,
            #"{"type": "string", "value": "Hi ADA"}"#,
            #"{"type": "string", "value": "15/02/1970"}"#,
            ##"{"type": "color", "value": "#FFFF0000"}"##,
            #"{"type": "array", "value": [1,2]}"#,
        ])
    }

    func testBadLinesGetErrorLinesAndTheCommandGoesOn() throws {
        let input = """
        not json
        [1, 2]
        {"variables": []}
        {"expression": "@{a}", "variables": [{"name": "a", "type": "integer", "value": "seven"}]}
        {"expression": "@{a}", "variables": [{"name": "a", "type": "widget", "value": 1}]}

        {"expression": "@{1 + 1}"}
        """
        let result = try expr(input)  // no newline after the last line
        XCTAssertEqual(result.status, 0, result.standardError)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 6, result.standardOutput)
        for line in lines.prefix(5) {
            XCTAssertTrue(line.hasPrefix(#"{"type": "error", "value": "Bad input line: "#), line)
        }
        XCTAssertEqual(lines.last, #"{"type": "integer", "value": 2}"#)
    }

    func testEmptyInputExitsCleanly() throws {
        let result = try expr("")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.standardOutput, "")
    }
}
