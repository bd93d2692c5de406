import HybridJSON

/// What one param of an API accepts (SPEC §7.1): its JSON type and the constraints JSON Schema
/// authors know by the same names. A call's params are checked against the rules before
/// anything is sent.
public struct ParamRule: Sendable, Equatable {
    /// The JSON type a param's value has.
    public enum Kind: String, Sendable, CaseIterable {
        case string, integer, number, boolean, array, object
    }

    /// The value's type.
    public var kind: Kind
    /// Whether a call must pass it (a `default` satisfies it).
    public var required = false
    /// The value used when a call passes none.
    public var defaultValue: JSONValue?
    /// The only values allowed, when given.
    public var allowed: [JSONValue]?
    /// The least and greatest numbers allowed (integer and number params).
    public var minimum: Double?
    public var maximum: Double?
    /// The fewest and most characters (string) or items (array) allowed.
    public var minLength: Int?
    public var maxLength: Int?
    /// A regular expression a string must match somewhere (anchor it with `^…$` to match whole).
    public var pattern: String?

    /// A rule for values of `kind`, with no other constraint.
    public init(kind: Kind) {
        self.kind = kind
    }

    /// Why `value` breaks the rule, in words (`expected an integer, got a string`), or nil when
    /// it keeps it.
    public func problem(with value: JSONValue) -> String? {
        guard Self.has(kind, value) else { return "expected \(Self.describe(kind)), got \(Self.describe(value))" }
        if let allowed, !allowed.contains(value) {
            return "expected one of \(allowed.map(\.jsonText).joined(separator: ", ")), got \(DiagnosticText.cut(value.jsonText))"
        }
        if let number = value.numericValue {
            if let minimum, number < minimum { return "expected at least \(Self.format(minimum)), got \(Self.format(number))" }
            if let maximum, number > maximum { return "expected at most \(Self.format(maximum)), got \(Self.format(number))" }
        }
        let length: Int? = switch value {
        case .string(let text): text.count
        case .array(let items): items.count
        default: nil
        }
        let unit = kind == .string ? "characters" : "items"
        if let length, let minLength, length < minLength { return "expected at least \(minLength) \(unit), got \(length)" }
        if let length, let maxLength, length > maxLength { return "expected at most \(maxLength) \(unit), got \(length)" }
        if let pattern, case .string(let text) = value {
            // Bounded: a pattern that backtracks for ever must not hang a call or `validate`.
            do throws(BoundedRegex.Failure) {
                if try !BoundedRegex.matches(text, pattern: pattern) {
                    return "expected text matching \(DiagnosticText.quoted(pattern)), got \(DiagnosticText.quoted(text))"
                }
            } catch {
                return "the pattern \(DiagnosticText.quoted(pattern)) takes too long to match \(DiagnosticText.quoted(text))"
            }
        }
        return nil
    }

    /// Whether `value` is of the JSON type `kind` (an integer is a number too).
    static func has(_ kind: Kind, _ value: JSONValue) -> Bool {
        switch (kind, value) {
        case (.string, .string), (.integer, .integer), (.number, .integer), (.number, .number), (.boolean, .bool),
             (.array, .array), (.object, .object):
            return true
        default:
            return false
        }
    }

    static func describe(_ kind: Kind) -> String {
        switch kind {
        case .integer, .array, .object: return "an \(kind.rawValue)"
        default: return "a \(kind.rawValue)"
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
