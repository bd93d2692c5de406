import Foundation
import XCTest
@testable import HybridExpressions

/// Runs DivKit's public expression test data (Conformance/divkit-expressions, Apache-2.0).
///
/// Every case that lists "ios" or "web" among its platforms is run (cases only for Android,
/// Flutter or no platform at all sometimes contradict the others, e.g. `""` is an error on
/// Android and an empty string elsewhere). Files in `requiredFiles` must pass completely,
/// except the cases in `knownSkips`; the others are counted and printed.
final class ConformanceTests: XCTestCase {
    /// Files that must pass 100 %.
    static func isRequired(_ file: String) -> Bool {
        file.hasPrefix("literals_") || file.hasPrefix("operations_")
            || file == "incorrect_syntax.json" || file == "implicit_cast.json"
    }

    /// Required cases we deliberately do not match, by expression, with the reason.
    static let knownSkips: [String: String] = [:]

    struct Outcome { var passed = 0, failed = 0, skipped = 0; var failures: [String] = [] }

    func testDivKitConformance() throws {
        guard let root = Bundle.module.url(forResource: "Conformance", withExtension: nil)?
            .appendingPathComponent("divkit-expressions")
        else { return XCTFail("Conformance data missing from the test bundle") }
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(files.isEmpty)

        var total = Outcome()
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let json = try TestJSON.parse(text)
            guard let cases = json["cases"]?.array else { continue }  // signature files
            var outcome = Outcome()
            for testCase in cases {
                let platforms = testCase["platforms"]?.array?.compactMap(\.string) ?? []
                let expression = testCase["expression"]?.string ?? ""
                if !(platforms.contains("ios") || platforms.contains("web")) || Self.knownSkips[expression] != nil {
                    outcome.skipped += 1
                    continue
                }
                if let problem = Self.run(testCase) {
                    outcome.failed += 1
                    outcome.failures.append("\(expression): \(problem)")
                } else {
                    outcome.passed += 1
                }
            }
            let run = outcome.passed + outcome.failed
            print("\(file): \(outcome.passed)/\(run) passed\(outcome.skipped > 0 ? ", \(outcome.skipped) skipped" : "")")
            if Self.isRequired(file) {
                for failure in outcome.failures { XCTFail("\(file): \(failure)") }
            } else if ProcessInfo.processInfo.environment["CONFORMANCE_VERBOSE"] != nil {
                for failure in outcome.failures { print("  FAIL \(failure)") }
            }
            total.passed += outcome.passed
            total.failed += outcome.failed
            total.skipped += outcome.skipped
        }
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
        let result: Result<ExpressionValue, ExpressionError>
        do {
            let template = try ExpressionTemplate(parsing: source)
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
