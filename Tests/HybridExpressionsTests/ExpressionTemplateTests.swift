import Foundation
import XCTest
import HybridExpressions

/// Unit tests of the public API: template kinds, typing, scopes, `!:`, errors, functions.
final class ExpressionTemplateTests: XCTestCase {
    private func eval(_ source: String, _ variables: [String: ExpressionValue] = [:]) throws -> ExpressionValue {
        try ExpressionTemplate(parsing: source).evaluate(in: VariableScope(variables))
    }

    private func error(_ source: String, _ variables: [String: ExpressionValue] = [:]) -> String? {
        do {
            _ = try eval(source, variables)
            return nil
        } catch let error as ExpressionError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    func testConstantTemplate() throws {
        let template = try ExpressionTemplate(parsing: "Hello, world")
        XCTAssertTrue(template.isConstant)
        XCTAssertFalse(template.isSingleExpression)
        XCTAssertEqual(template.variableNames, [])
        XCTAssertEqual(try template.evaluate(in: VariableScope([:])), .string("Hello, world"))
        // DivKit resolves escapes even in constant text.
        XCTAssertEqual(try eval("Hello, \\@{World}!"), .string("Hello, @{World}!"))
        XCTAssertEqual(try eval(""), .string(""))
    }

    func testSingleExpressionKeepsType() throws {
        let template = try ExpressionTemplate(parsing: "@{count + 1}")
        XCTAssertTrue(template.isSingleExpression)
        XCTAssertFalse(template.isConstant)
        XCTAssertEqual(try template.evaluate(in: VariableScope(["count": .integer(41)])), .integer(42))
        XCTAssertEqual(try eval("@{1.0}"), .number(1))
        XCTAssertEqual(try eval("@{flag}", ["flag": .boolean(true)]), .boolean(true))
        XCTAssertEqual(try eval("@{items}", ["items": .array([.integer(1)])]), .array([.integer(1)]))
    }

    func testTemplateWithTextIsString() throws {
        let template = try ExpressionTemplate(parsing: "Hello, @{user.name}! You have @{count} items.")
        XCTAssertFalse(template.isSingleExpression)
        XCTAssertEqual(template.variableNames, ["user.name", "count"])
        let scope = VariableScope(["user": .dict(["name": .string("Ada")]), "count": .integer(3)])
        XCTAssertEqual(try template.evaluate(in: scope), .string("Hello, Ada! You have 3 items."))
        XCTAssertEqual(try template.evaluateString(in: scope), "Hello, Ada! You have 3 items.")
        XCTAssertEqual(try eval("@{a}@{b}", ["a": .integer(1), "b": .number(2)]), .string("12.0"))
    }

    func testNestedStringTemplates() throws {
        XCTAssertEqual(try eval("@{'Hello @{name}'}", ["name": .string("Ada")]), .string("Hello Ada"))
        XCTAssertEqual(try eval("@{'var = @{'@{v}'}'}", ["v": .string("abcd")]), .string("var = abcd"))
    }

    func testDisplayStrings() {
        XCTAssertEqual(ExpressionValue.number(1).displayString, "1.0")
        XCTAssertEqual(ExpressionValue.number(123.45).displayString, "123.45")
        XCTAssertEqual(ExpressionValue.number(1e23).displayString, "1.0E23")
        XCTAssertEqual(ExpressionValue.number(0.0000324).displayString, "3.24E-5")
        XCTAssertEqual(ExpressionValue.number(12345678).displayString, "1.2345678E7")
        XCTAssertEqual(ExpressionValue.integer(-5).displayString, "-5")
        XCTAssertEqual(ExpressionValue.color(ExpressionColor(hex: "#fce")!).displayString, "#FFFFCCEE")
        XCTAssertEqual(ExpressionValue.datetime(Date(timeIntervalSince1970: 1)).displayString, "1970-01-01 00:00:01")
        XCTAssertEqual(ExpressionValue.dict(["b": .integer(1), "a": .array([.boolean(true)])]).displayString, #"{"a":[true],"b":1}"#)
        XCTAssertEqual(ExpressionValue.url("https://ya.ru").typeName, "url")
    }

    func testColors() {
        XCTAssertEqual(ExpressionColor(hex: "#ABC")?.argb, 0xFFAABBCC)
        XCTAssertEqual(ExpressionColor(hex: "#8ABC")?.argb, 0x88AABBCC)
        XCTAssertEqual(ExpressionColor(hex: "#112233")?.argb, 0xFF112233)
        XCTAssertEqual(ExpressionColor(hex: "#80112233")?.argb, 0x80112233)
        XCTAssertNil(ExpressionColor(hex: "112233"))
        XCTAssertNil(ExpressionColor(hex: "#12345"))
    }

    func testVariableScopePaths() throws {
        let scope = VariableScope([
            "user": .dict(["name": .string("Ada"), "tags": .array([.string("x"), .string("y")])]),
            "items": .array([.dict(["title": .string("First")])]),
            "string.var": .string("declared"),
        ])
        XCTAssertEqual(scope.value(of: "user.name"), .string("Ada"))
        XCTAssertEqual(scope.value(of: "user.tags.1"), .string("y"))
        XCTAssertEqual(scope.value(of: "items.0.title"), .string("First"))
        XCTAssertEqual(scope.value(of: "string.var"), .string("declared"))
        XCTAssertNil(scope.value(of: "user.missing"))
        XCTAssertNil(scope.value(of: "items.5.title"))
        XCTAssertNil(scope.value(of: "nobody.name"))
        XCTAssertEqual(try ExpressionTemplate(parsing: "@{items.0.title}").evaluate(in: scope), .string("First"))
        // Method syntax still works on a path.
        XCTAssertEqual(try ExpressionTemplate(parsing: "@{user.name.toString()}").evaluate(in: scope), .string("Ada"))
        XCTAssertEqual(try ExpressionTemplate(parsing: "@{user.tags.getString(0)}").evaluate(in: scope), .string("x"))
    }

    func testTryOperator() throws {
        XCTAssertEqual(try eval("@{missing !: 'fallback'}"), .string("fallback"))
        XCTAssertEqual(try eval("@{1 / 0 !: -1}"), .integer(-1))
        XCTAssertEqual(try eval("@{x !: 8 + 4 > 2}", ["x": .integer(1)]), .boolean(false))
        XCTAssertEqual(try eval("@{x !: 8 + 4}", ["x": .integer(1)]), .integer(1))
    }

    func testShortCircuit() throws {
        XCTAssertEqual(try eval("@{true || missing}"), .boolean(true))
        XCTAssertEqual(try eval("@{false && missing}"), .boolean(false))
        XCTAssertEqual(try eval("@{false ? missing : 2}"), .integer(2))
    }

    func testArithmeticTyping() throws {
        XCTAssertEqual(try eval("@{7 / 2}"), .integer(3))
        XCTAssertEqual(try eval("@{7 / 2.0}"), .number(3.5))
        XCTAssertEqual(try eval("@{-7 % 2}"), .integer(-1))
        XCTAssertEqual(try eval("@{'a' + 'b'}"), .string("ab"))
        XCTAssertEqual(try eval("@{a + b * 2 > c ? 'x' : 'y'}", ["a": .integer(1), "b": .integer(2), "c": .integer(3)]), .string("x"))
    }

    func testErrorTexts() {
        XCTAssertEqual(error("@{2 ? 1 : 0}"), "Failed to evaluate [2 ? 1 : 0]. Ternary must be called with a Boolean value as a condition.")
        XCTAssertEqual(error("@{2 / 0}"), "Failed to evaluate [2 / 0]. Division by zero is not supported.")
        XCTAssertEqual(error("@{9223372036854775807 + 1}"), "Failed to evaluate [9223372036854775807 + 1]. Integer overflow.")
        XCTAssertEqual(error("@{7 == 'abc'}"), "Failed to evaluate [7 == 'abc']. Operator '==' cannot be applied to different types: Integer and String.")
        XCTAssertEqual(error("@{nobody}"), "Variable 'nobody' is missing.")
        XCTAssertEqual(error("@{substring('012', 2, 5)}"), "Failed to evaluate [substring('012', 2, 5)]. Indexes are out of bounds.")
        XCTAssertEqual(error("@{nope(1)}"), "Failed to evaluate [nope(1)]. Unknown function name: nope.")
    }

    func testSyntaxErrorsAtParse() {
        XCTAssertThrowsError(try ExpressionTemplate(parsing: "@{ Hello there")) { error in
            XCTAssertEqual((error as? ExpressionError)?.message, "Error tokenizing '@{ Hello there'.")
        }
        XCTAssertThrowsError(try ExpressionTemplate(parsing: "@{1 +}"))
        XCTAssertThrowsError(try ExpressionTemplate(parsing: "@{'\\a'}")) { error in
            XCTAssertEqual((error as? ExpressionError)?.message, "Incorrect string escape")
        }
        XCTAssertThrowsError(try ExpressionTemplate(parsing: "@{9223372036854775808}")) { error in
            XCTAssertEqual((error as? ExpressionError)?.message, "Value 9223372036854775808 can't be converted to Integer type.")
        }
    }

    func testBuiltinFunctions() throws {
        XCTAssertEqual(try eval("@{len('héllo')}"), .integer(5))
        XCTAssertEqual(try eval("@{toUpperCase('abc')}"), .string("ABC"))
        XCTAssertEqual(try eval("@{max(1, 2.5)}"), .number(2.5))
        XCTAssertEqual(try eval("@{toInteger('42') + 1}"), .integer(43))
        XCTAssertEqual(try eval("@{round(2.5)}"), .number(3))
        XCTAssertEqual(try eval("@{getArrayString(items, 1)}", ["items": .array([.string("a"), .string("b")])]), .string("b"))
        XCTAssertEqual(try eval("@{d.getInteger('n')}", ["d": .dict(["n": .integer(5)])]), .integer(5))
    }

    func testCustomFunctionRegistration() throws {
        var library = FunctionLibrary.standard
        library.register("double", [.integer]) { args in .integer((args[0].integerValue ?? 0) * 2) }
        library.register("double", [.string]) { args in .string((args[0].stringValue ?? "") + (args[0].stringValue ?? "")) }
        library.registerMethod("shout", [.string]) { args in .string((args[0].stringValue ?? "").uppercased() + "!") }
        library.register("fail", []) { _ throws(ExpressionError) in throw ExpressionError("Nope.") }
        let scope = VariableScope([:])
        XCTAssertEqual(try ExpressionTemplate(parsing: "@{double(21)}", functions: library).evaluate(in: scope), .integer(42))
        XCTAssertEqual(try ExpressionTemplate(parsing: "@{double('ab')}", functions: library).evaluate(in: scope), .string("abab"))
        XCTAssertEqual(try ExpressionTemplate(parsing: "@{'hi'.shout()}", functions: library).evaluate(in: scope), .string("HI!"))
        XCTAssertThrowsError(try ExpressionTemplate(parsing: "@{fail()}", functions: library).evaluate(in: scope)) { error in
            XCTAssertEqual((error as? ExpressionError)?.message, "Failed to evaluate [fail()]. Nope.")
        }
        XCTAssertThrowsError(try ExpressionTemplate(parsing: "@{double(true)}", functions: library).evaluate(in: scope)) { error in
            XCTAssertEqual((error as? ExpressionError)?.message,
                           "Failed to evaluate [double(true)]. Function has no matching overload for given argument types: Boolean.")
        }
    }

    func testTemplateIsReusableAcrossThreads() throws {
        let template = try ExpressionTemplate(parsing: "@{a * 2}")
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            XCTAssertEqual(try? template.evaluate(in: VariableScope(["a": .integer(index)])), .integer(index * 2))
        }
    }
}
