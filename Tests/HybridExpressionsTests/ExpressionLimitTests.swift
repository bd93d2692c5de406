import Foundation
import Testing
import HybridExpressions

/// Input no person writes, which used to overflow the stack or take the machine's memory,
/// now gets an ordinary expression error (``ExpressionLimits``).
@Suite struct ExpressionLimitTests {
    private func outcome(_ source: String, _ variables: [String: ExpressionValue] = [:]) -> Result<ExpressionValue, ExpressionError> {
        Result { () throws(ExpressionError) in
            try ExpressionTemplate(parsing: source).evaluate(in: VariableScope(variables))
        }
    }

    private func message(_ source: String, _ variables: [String: ExpressionValue] = [:]) -> String? {
        if case .failure(let error) = outcome(source, variables) { return error.message }
        return nil
    }

    @Test func deepNestingIsRefusedNotOverflowed() throws {
        let nesting = "Expression nests deeper than \(ExpressionLimits.maximumNesting) levels."
        #expect(message("@{" + String(repeating: "(", count: 14_000) + "1" + String(repeating: ")", count: 14_000) + "}") == nesting)
        #expect(message("@{" + String(repeating: "-(", count: 5_000) + "1" + String(repeating: ")", count: 5_000) + "}") == nesting)
        #expect(message("@{" + String(repeating: "f(", count: 5_000) + "1" + String(repeating: ")", count: 5_000) + "}") == nesting)
        #expect(message("@{" + String(repeating: "true ? 1 : ", count: 5_000) + "2}") == nesting)
        #expect(message("@{" + String(repeating: "'@{", count: 5_000) + String(repeating: "}'", count: 5_000) + "}") == nesting)
        // Up to the limit, nesting works as before.
        let depth = ExpressionLimits.maximumNesting - 1
        #expect(try outcome("@{" + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth) + "}").get() == .integer(1))
    }

    @Test func longChainsAreRefusedBeforeEvaluationRecursesThroughThem() throws {
        let tooLong = "Expression is too long: more than \(ExpressionLimits.maximumTreeHeight) operations in a row."
        #expect(message("@{" + Array(repeating: "1", count: 50_000).joined(separator: " + ") + "}") == tooLong)
        #expect(message("@{'a'" + String(repeating: ".toString()", count: 5_000) + "}") == tooLong)
        #expect(try outcome("@{" + Array(repeating: "1", count: 900).joined(separator: " + ") + "}").get() == .integer(900))
    }
}
