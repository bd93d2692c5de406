import Foundation
import XCTest
@testable import HybridExpressions

/// Runs DivKit's public expression test data (Conformance/divkit-expressions, Apache-2.0).
///
/// Every case of every file is run, whatever platforms it lists, and every file must pass
/// completely except the cases in `skips`, each with its reason (docs/expressions.md lists
/// them too). A skipped case that starts passing fails the test, so the list stays honest.
final class ConformanceTests: XCTestCase {
    /// A case we deliberately do not match: its file, expression, a piece of its expected
    /// value (to tell apart cases with the same expression), and why.
    struct Skip {
        let file: String
        let expression: String
        let expected: String
        let reason: String
        /// A piece of the case's variables as compact text, when the rest is not enough.
        var variables: String = ""
    }

    static let noNull = "HybridTerm's values have no null (SPEC §2 lists the types); a JSON null inside a dict or array variable is dropped"
    static let iosOnly = "iOS only, and contradicts the case for Android and web with the same input, which passes"

    /// The cases we do not pass, and why.
    static let skips: [Skip] = [
        // JSON null inside collections (web/Android texts mention a Null type we do not have).
        Skip(file: "functions_array.json", expression: "@{getDictFromArray(null_array, 0)}", expected: "got Null", reason: noNull),
        Skip(file: "functions_dict.json", expression: "@{getStringFromDict(dict, 'prop')}", expected: "got \"null\"", reason: noNull),
        Skip(file: "functions_dict.json", expression: "@{getStringFromDict(dict, 'prop', 'missing_prop')}", expected: "", reason: noNull,
             variables: "prop:null"),
        Skip(file: "functions_dict_legacy.json", expression: "@{getDictString(dict, 'prop')}", expected: "got \"null\"", reason: noNull),
        Skip(file: "functions_dict_legacy.json", expression: "@{getDictString(dict, 'prop', 'missing_prop')}", expected: "", reason: noNull,
             variables: "prop:null"),
        Skip(file: "methods_dict.json", expression: "@{dict_var.containsKey('null_key')}", expected: "true", reason: noNull),
        // Platform-specific cases that contradict others in the same data.
        Skip(file: "functions_datetime.json", expression: "@{formatDateAsUTCWithLocale(parseUnixTime(0), 'YYYY-\\'W\\'ww-u', 'en-US')}",
             expected: "1970-W01-5", reason: "iOS only; `u` is the extended year in the web/iOS case 'Year 'y', extended year 'u' (1970), which passes"),
        Skip(file: "functions_datetime.json", expression: "@{formatDateAsUTC(parseUnixTime(0), 'dd/MM/yyyy HH:mm Z')}",
             expected: "not supported", reason: "Android/iOS only; the case for all three platforms formats `Z` as +0000, which passes"),
        Skip(file: "functions_datetime_format.json", expression: "@{formatDateAsUTC(parseUnixTime(3933240), 'dd/MM/yyyy HH:mm z')}",
             expected: "GMT", reason: iosOnly + " (`z` is UTC)"),
        Skip(file: "functions_datetime_format.json", expression: "@{formatDateAsUTC(parseUnixTime(3933240), 'dd/MM/yyyy HH:mm zzzz')}",
             expected: "Greenwich", reason: iosOnly + " (`zzzz` is Coordinated Universal Time)"),
        Skip(file: "functions_unsupported.json", expression: "@{undefinedFunc()}", expected: "Failed to evaluate",
             reason: "Android only; the iOS/web case with the same input (a bare `Unknown function name`) passes"),
        Skip(file: "string_templates.json", expression: "", expected: "Expression expected",
             reason: "Android only; an empty string is an empty string on iOS and web (that case passes)"),
        // Functions as values: no platform lists these.
        Skip(file: "custom_functions.json", expression: "@{testFunction + 1}", expected: "Function",
             reason: "no platform runs it; functions are not values here (only `filter` takes one by name)"),
        Skip(file: "custom_functions.json", expression: "@{toString(myFunction)}", expected: "Function",
             reason: "no platform runs it; functions are not values here (only `filter` takes one by name)"),
    ]

    static func skip(file: String, _ testCase: TestJSON) -> Skip? {
        let expression = testCase["expression"]?.string ?? ""
        let expected = testCase["expected"]?["value"].map(TestJSON.render) ?? ""
        let variables = testCase["variables"].map(TestJSON.render) ?? ""
        return skips.first {
            $0.file == file && $0.expression == expression
                && ($0.expected.isEmpty || expected.contains($0.expected))
                && ($0.variables.isEmpty || variables.contains($0.variables))
        }
    }

    struct Outcome { var passed = 0, failed = 0, skipped = 0; var failures: [String] = [] }

    func testDivKitConformance() throws {
        guard let root = Bundle.module.url(forResource: "Conformance", withExtension: nil)?
            .appendingPathComponent("divkit-expressions")
        else { return XCTFail("Conformance data missing from the test bundle") }
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(files.isEmpty)

        var total = Outcome()
        var usedSkips = 0
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let json = try TestJSON.parse(text)
            guard let cases = json["cases"]?.array else { continue }  // signature files
            var outcome = Outcome()
            for testCase in cases {
                let expression = testCase["expression"]?.string ?? ""
                let problem = Self.run(testCase)
                if let skip = Self.skip(file: file, testCase) {
                    outcome.skipped += 1
                    usedSkips += 1
                    if problem == nil { XCTFail("\(file): \(expression) passes now; remove it from the skips (\(skip.reason))") }
                    continue
                }
                if let problem {
                    outcome.failed += 1
                    outcome.failures.append("\(expression): \(problem)")
                } else {
                    outcome.passed += 1
                }
            }
            let run = outcome.passed + outcome.failed
            print("\(file): \(outcome.passed)/\(run) passed\(outcome.skipped > 0 ? ", \(outcome.skipped) skipped" : "")")
            for failure in outcome.failures { XCTFail("\(file): \(failure)") }
            total.passed += outcome.passed
            total.failed += outcome.failed
            total.skipped += outcome.skipped
        }
        XCTAssertEqual(usedSkips, Self.skips.count, "every skip names a case of the data")
        print("DivKit conformance: \(total.passed)/\(total.passed + total.failed) passed (\(total.skipped) skipped)")
    }

    /// Runs one case; `nil` when it passes, else what went wrong.
    static func run(_ testCase: TestJSON) -> String? {
        let source = testCase["expression"]?.string ?? ""
        guard let expected = testCase["expected"], let expectedType = expected["type"]?.string else { return "no expectation" }
        var variables: [String: ExpressionValue] = [:]
        for variable in testCase["variables"]?.array ?? [] {
            guard let name = variable["name"]?.string, let type = variable["type"]?.string,
                  let value = variable["value"], let converted = typedValue(value, type: type)
            else { return "unsupported variable \(variable)" }
            variables[name] = converted
        }
        var library = FunctionLibrary.standard
        for function in testCase["functions"]?.array ?? [] {
            guard let name = function["name"]?.string, let body = function["body"]?.string else { return "bad function" }
            var parameters: [(name: String, type: ExpressionType)] = []
            for argument in function["arguments"]?.array ?? [] {
                guard let argumentName = argument["name"]?.string,
                      let type = argument["type"]?.string.flatMap(ExpressionType.init(rawValue:))
                else { return "bad function argument" }
                parameters.append((argumentName, type))
            }
            do {
                try library.registerUserFunction(name: name, parameters: parameters,
                                                 body: try ExpressionTemplate(parsing: body, functions: library))
            } catch {
                return "function body: \(error.message)"
            }
        }
        let result: Result<ExpressionValue, ExpressionError>
        do {
            let template = try ExpressionTemplate(parsing: source, functions: library)
            result = .success(try template.evaluate(in: VariableScope(variables)))
        } catch {
            result = .failure(error)
        }

        let expectedValue = expected["value"] ?? .null
        switch result {
        case .failure(let error):
            guard expectedType == "error" else { return "unexpected error \(error.message)" }
            if let text = expectedValue.string, !text.isEmpty, text != error.message {
                return "error text \(error.message.debugDescription), expected \(text.debugDescription)"
            }
            return nil
        case .success(let value):
            guard expectedType != "error" else { return "expected an error, got \(value)" }
            guard let wanted = typedValue(expectedValue, type: expectedType) else { return "cannot read expected \(expectedValue)" }
            return matches(value, wanted) ? nil : "got \(value), expected \(wanted)"
        }
    }

    /// Numbers compare with a small relative tolerance (`3.2 % 2.5` is 0.7000000000000002).
    static func matches(_ a: ExpressionValue, _ b: ExpressionValue) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)):
            return x == y || abs(x - y) <= 1e-9 * max(1, abs(y))
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { matches($0, $1) }
        case let (.dict(x), .dict(y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { matches(value, $0) } ?? false }
        case let (.datetime(x), .datetime(y)):
            return abs(x.timeIntervalSince(y)) < 0.001
        default:
            return a == b
        }
    }

    /// A JSON value read as the named DivKit type.
    static func typedValue(_ json: TestJSON, type: String) -> ExpressionValue? {
        switch (type, json) {
        case ("integer", .int(let v)): return .integer(v)
        case ("number", .int(let v)): return .number(Double(v))
        case ("number", .double(let v)): return .number(v)
        case ("string", .string(let v)): return .string(v)
        case ("boolean", .bool(let v)): return .boolean(v)
        case ("boolean", .int(let v)): return .boolean(v != 0)
        case ("color", .string(let v)): return ExpressionColor(hex: v).map { .color($0) }
        case ("url", .string(let v)): return .url(v)
        case ("datetime", .string(let v)): return parseDate(v).map { .datetime($0) }
        case ("dict", .object), ("array", .array): return untyped(json)
        default: return nil
        }
    }

    /// JSON inside dicts and arrays: integers stay integers; nulls are dropped (no null type).
    static func untyped(_ json: TestJSON) -> ExpressionValue? {
        switch json {
        case .null: return nil
        case .bool(let v): return .boolean(v)
        case .int(let v): return .integer(v)
        case .double(let v): return .number(v)
        case .string(let v): return .string(v)
        case .array(let items): return .array(items.compactMap(untyped))
        case .object(let entries):
            var dict: [String: ExpressionValue] = [:]
            for (key, value) in entries { dict[key] = untyped(value) }
            return .dict(dict)
        }
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd'T'HH:mm:ssZ"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
