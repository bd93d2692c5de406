import ArgumentParser
import Foundation
import HybridAppRunner
import HybridTerm

/// `hybrid expr`: evaluates expressions, JSON Lines in and out (SPEC §6).
///
/// Each input line is `{"expression": "@{…}", "variables": [{"name", "type", "value"}]}`
/// (optionally `"functions": [{"name", "arguments": [{"name", "type"}], "body": "@{…}"}]`,
/// DivKit's user functions); each answer is one line, `{"type": "integer", "value": 2}` or
/// `{"type": "error", "value": "message"}`. A bad line is answered with an error line and the
/// command goes on; blank lines are ignored. Exit status 0 at the end of the input.
struct ExprCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expr",
        abstract: "Evaluate expressions: JSON Lines in on standard input, one JSON line out for each.",
        discussion: """
        Input lines: {"expression": "@{a + 1}", "variables": [{"name": "a", "type": "integer", "value": 1}]}. \
        Output lines: {"type": "integer", "value": 2}, or {"type": "error", "value": "message"}. \
        Variable types: integer, number, string, boolean, color ("#AARRGGBB"), url, \
        datetime ("yyyy-MM-dd HH:mm:ss" UTC, or Unix seconds), dict, array.
        """
    )

    func run() throws {
        // Lines are read as bytes, not as `readLine` strings, which would replace a bad UTF-8
        // byte before the parser could name it.
        var pending: [UInt8] = []
        while case let chunk = FileHandle.standardInput.availableData, !chunk.isEmpty {
            pending += chunk
            var start = 0
            while let end = pending[start...].firstIndex(of: 0x0A) {
                Self.respond(to: Array(pending[start..<end]))
                start = end + 1
            }
            pending.removeFirst(start)
        }
        Self.respond(to: pending)
    }

    /// Writes the answer to one input line; blank lines get none.
    private static func respond(to line: [UInt8]) {
        let line = line.last == 0x0D ? Array(line.dropLast()) : line
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        FileHandleOutput.standardOutput(Array((answer(line) + "\n").utf8))
    }

    /// The output line for one input line.
    static func answer(_ line: [UInt8]) -> String {
        switch evaluate(line) {
        case .success(let value): return output(type: value.typeName, value: value.json)
        case .failure(let error): return output(type: "error", value: .string(error.message))
        }
    }

    private static func output(type: String, value: JSONValue) -> String {
        var text = "{\"type\": "
        JSONText.appendQuoted(type, to: &text)
        return text + ", \"value\": " + value.jsonText + "}"
    }

    static func evaluate(_ line: [UInt8]) -> Result<ExpressionValue, ExpressionError> {
        let request: JSONValue
        do {
            request = try JSONParser.parse(line).plain
        } catch {
            return .failure(ExpressionError("Bad input line: \(error.message) at byte \(error.offset)"))
        }
        guard case .object(let object) = request else {
            return .failure(ExpressionError("Bad input line: expected an object with \"expression\""))
        }
        guard case .string(let source)? = object["expression"] else {
            return .failure(ExpressionError("Bad input line: \"expression\" must be a string"))
        }
        var variables: [String: ExpressionValue] = [:]
        if let list = object["variables"] {
            guard case .array(let items) = list else {
                return .failure(ExpressionError("Bad input line: \"variables\" must be an array"))
            }
            for item in items {
                switch variable(item) {
                case .success(let (name, value)): variables[name] = value
                case .failure(let error): return .failure(error)
                }
            }
        }
        var library = FunctionLibrary.standard
        if case .array(let functions)? = object["functions"] {
            for function in functions {
                if let error = register(function, in: &library) { return .failure(error) }
            }
        }
        do {
            let template = try ExpressionTemplate(parsing: source, functions: library)
            return .success(try template.evaluate(in: VariableScope(variables)))
        } catch {
            return .failure(error)
        }
    }

    /// One `{"name", "type", "value"}` entry as a typed value.
    private static func variable(_ json: JSONValue) -> Result<(String, ExpressionValue), ExpressionError> {
        guard case .object(let entry) = json, case .string(let name)? = entry["name"], !name.isEmpty,
              case .string(let type)? = entry["type"], let value = entry["value"]
        else {
            return .failure(ExpressionError("Bad input line: each variable needs \"name\", \"type\" and \"value\""))
        }
        let bad = ExpressionError("Bad input line: variable '\(name)' is not a valid \(type)")
        let typed: ExpressionValue?
        switch (type, value) {
        case ("integer", .integer(let v)): typed = .integer(v)
        case ("number", .integer(let v)): typed = .number(Double(v))
        case ("number", .number(let v)): typed = .number(v)
        case ("string", .string(let v)): typed = .string(v)
        case ("boolean", .bool(let v)): typed = .boolean(v)
        case ("color", .string(let v)): typed = ExpressionColor(hex: v).map { .color($0) }
        case ("url", .string(let v)): typed = .url(v)
        case ("datetime", .integer(let v)): typed = try? ExpressionValue.datetime(secondsSince1970: v)
        case ("datetime", .string(let v)): typed = parseDate(v).map { .datetime($0) }
        case ("dict", .object), ("array", .array): typed = ExpressionValue(json: value)
        default:
            guard ExpressionType(rawValue: type) != nil else {
                return .failure(ExpressionError("Bad input line: unknown type '\(type)' for variable '\(name)'"))
            }
            typed = nil
        }
        guard let typed else { return .failure(bad) }
        return .success((name, typed))
    }

    /// `{"name", "arguments": [{"name", "type"}], "body"}`: a user function.
    private static func register(_ json: JSONValue, in library: inout FunctionLibrary) -> ExpressionError? {
        guard case .object(let entry) = json, case .string(let name)? = entry["name"],
              case .string(let body)? = entry["body"]
        else { return ExpressionError("Bad input line: each function needs \"name\" and \"body\"") }
        var parameters: [(name: String, type: ExpressionType)] = []
        if case .array(let arguments)? = entry["arguments"] {
            for argument in arguments {
                guard case .object(let parameter) = argument, case .string(let parameterName)? = parameter["name"],
                      case .string(let typeName)? = parameter["type"], let type = ExpressionType(rawValue: typeName)
                else { return ExpressionError("Bad input line: function '\(name)' has a bad argument") }
                parameters.append((parameterName, type))
            }
        }
        do {
            try library.registerUserFunction(name: name, parameters: parameters,
                                             body: try ExpressionTemplate(parsing: body, functions: library))
            return nil
        } catch {
            return error
        }
    }

    private static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
