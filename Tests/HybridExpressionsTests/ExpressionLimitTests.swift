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

    @Test func numbersPastTheLargestAreErrorsNotNull() {
        #expect(message("@{maxNumber() * 2}") == "Failed to evaluate [1.7976931348623157E308 * 2.0]. Number overflow.")
        #expect(message("@{mul(maxNumber(), 2.0)}") == "Failed to evaluate [mul(1.7976931348623157E308, 2.0)]. Number overflow.")
        #expect(message("@{asin(2.0)}") == "Failed to evaluate [asin(2.0)]. Result is not a number.")
    }

    @Test func stringsAreBoundedBeforeTheyAreMade() throws {
        let tooLong = "String is longer than \(ExpressionLimits.maximumStringBytes) bytes."
        #expect(message("@{padStart('a', 9223372036854775807, 'b')}") == "Failed to evaluate [padStart('a', 9223372036854775807, 'b')]. \(tooLong)")
        #expect(message("@{padEnd(1, 9223372036854775807, 'b')}") == "Failed to evaluate [padEnd(1, 9223372036854775807, 'b')]. \(tooLong)")
        #expect(try outcome("@{padStart('a', -9223372036854775808, 'b')}").get() == .string("a"))
        let doubling = "@{replaceAll(s, 'a', 'aaaaaaaaaaaaaaaa')}"
        #expect(message(doubling, ["s": .string(String(repeating: "a", count: 100_000))])?.hasSuffix(tooLong) == true)
        let half = String(repeating: "a", count: ExpressionLimits.maximumStringBytes / 2 + 1)
        #expect(message("@{s + s}", ["s": .string(half)])?.hasSuffix(tooLong) == true)
        #expect(message("@{s}@{s}", ["s": .string(half)]) == tooLong)
        // Echoed strings are cut in messages.
        #expect(message("@{s + s}", ["s": .string(half)])?.count ?? .max < 300)
    }

    @Test func datetimesStayInRange() throws {
        let outOfRange = "Datetime is out of range (years -271821 to 275760)."
        #expect(message("@{parseUnixTime(9223372036854775807)}") == "Failed to evaluate [parseUnixTime(9223372036854775807)]. \(outOfRange)")
        #expect(message("@{addMillis(parseUnixTime(0), 9223372036854775807)}")?.hasSuffix(outOfRange) == true)
        #expect(message("@{setYear(parseUnixTime(0), 9223372036854775807)}")?.hasSuffix("instead got 9223372036854775807.") == true)
        #expect(message("@{setYear(parseUnixTime(0), 275761)}")?.hasSuffix(outOfRange) == true)
        #expect(try outcome("@{getYear(setYear(parseUnixTime(0), 275760))}").get() == .integer(275760))
        // A host may hand in any date: taking it apart clamps instead of trapping.
        #expect(try outcome("@{getYear(t)}", ["t": .datetime(Date(timeIntervalSince1970: -9.2e18))]).get() == .integer(-271821))
        #expect(throws: ExpressionError.self) { try ExpressionValue.datetime(secondsSince1970: Int.min) }
    }

    /// Foundation's search on Linux misread a NUL in a needle (a fuzzer's finding, kept in
    /// `Tests/Fixtures/fuzz/expression/replaceall-nul-needle`): `replaceAll` trapped, `contains`
    /// answered true and `index` a place past the end.
    @Test func searchesHandleNulAndOverlapsByUTF16() throws {
        let nul = ExpressionValue.string("0\u{0}")
        #expect(try outcome("@{replaceAll('000', n, '19')}", ["n": nul]).get() == .string("000"))
        #expect(try outcome("@{contains('000', n)}", ["n": nul]).get() == .boolean(false))
        #expect(try outcome("@{index('000', n)}", ["n": nul]).get() == .integer(-1))
        #expect(try outcome("@{lastIndex('000', n)}", ["n": nul]).get() == .integer(-1))
        #expect(try outcome("@{replaceAll('aaaa', 'aa', 'b')}").get() == .string("bb"))
        #expect(try outcome("@{index('abcabc', 'ca')}").get() == .integer(2))
        #expect(try outcome("@{lastIndex('aaa', 'aa')}").get() == .integer(1))
        #expect(try outcome("@{lastIndex('héllo héllo', 'llo')}").get() == .integer(8))
        #expect(try outcome("@{contains('😀x', 'x')}").get() == .boolean(true))
    }

    @Test func catastrophicRegexBacktrackingIsStopped() throws {
        let text = String(repeating: "a", count: 40) + "!"
        #expect(message("@{testRegex(t, '(a+)+$')}", ["t": .string(text)])?.hasSuffix("Regular expression takes too long to match.") == true)
        #expect(try outcome("@{testRegex(t, 'a!$')}", ["t": .string(String(repeating: "a", count: 500_000) + "!")]).get() == .boolean(true))
    }

    @Test func longDottedNamesAreResolvedInOnePass() throws {
        var nested = ExpressionValue.integer(7)
        for _ in 0..<9 { nested = .dict(["a": nested]) }
        #expect(try outcome("@{" + Array(repeating: "a", count: 10).joined(separator: ".") + "}", ["a": nested]).get() == .integer(7))
        #expect(try outcome("@{a.b.c.d.e.f.g.h.i.j}", ["a.b": .dict(["c": .dict(["d": .dict(["e": .dict(["f": .dict(["g": .dict(["h": .dict(["i": .dict(["j": .integer(5)])])])])])])])])]).get() == .integer(5))
        // Twenty thousand segments: answered at once, and the name echoed cut.
        let long = Array(repeating: "a", count: 20_000).joined(separator: ".")
        #expect(message("@{\(long)}", ["a": nested])?.count ?? .max < 120)
    }

    @Test func userFunctionsCannotFanOutOrChainWithoutBound() throws {
        // Each function calls the one before twice: 2^40 calls.
        var library = FunctionLibrary.standard
        try library.registerUserFunction(name: "f0", parameters: [], body: ExpressionTemplate(parsing: "@{1}", functions: library))
        for level in 1...40 {
            try library.registerUserFunction(name: "f\(level)", parameters: [],
                                             body: ExpressionTemplate(parsing: "@{f\(level - 1)() + f\(level - 1)()}", functions: library))
        }
        let fanOut = Result { () throws(ExpressionError) in try ExpressionTemplate(parsing: "@{f40()}", functions: library).evaluate(in: VariableScope([:])) }
        #expect(fanOut.failure?.message.hasSuffix("More than \(ExpressionLimits.maximumUserCalls) function calls.") == true)
        // A chain as long as the functions allowed; one more is refused.
        for extra in 41..<ExpressionLimits.maximumUserFunctions {
            try library.registerUserFunction(name: "g\(extra)", parameters: [], body: ExpressionTemplate(parsing: "@{1}", functions: library))
        }
        #expect(throws: ExpressionError("More than \(ExpressionLimits.maximumUserFunctions) user-defined functions.")) {
            try library.registerUserFunction(name: "h", parameters: [], body: ExpressionTemplate(parsing: "@{1}", functions: library))
        }
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
