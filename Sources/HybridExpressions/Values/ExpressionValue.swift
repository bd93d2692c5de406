import Foundation
import HybridJSON

/// A typed value of DivKit's expression language.
///
/// The cases mirror DivKit's value types one to one, so a value keeps the type DivKit would give
/// it (`1` is an `.integer`, `1.0` a `.number`, and they are different types for `==` unless one
/// side is implicitly cast).
public enum ExpressionValue: Equatable, Sendable {
    /// A 64-bit signed integer (DivKit `integer`).
    case integer(Int)
    /// A double-precision number (DivKit `number`).
    case number(Double)
    /// A text value (DivKit `string`).
    case string(String)
    /// A truth value (DivKit `boolean`).
    case boolean(Bool)
    /// An ARGB colour (DivKit `color`).
    case color(ExpressionColor)
    /// A URL, kept as its text (DivKit `url`); a distinct type from `string`.
    case url(String)
    /// A point in time (DivKit `datetime`); shown in UTC.
    case datetime(Date)
    /// A JSON-like object (DivKit `dict`).
    case dict([String: ExpressionValue])
    /// A JSON-like list (DivKit `array`).
    case array([ExpressionValue])

    /// The value's type.
    public var type: ExpressionType {
        switch self {
        case .integer: return .integer
        case .number: return .number
        case .string: return .string
        case .boolean: return .boolean
        case .color: return .color
        case .url: return .url
        case .datetime: return .datetime
        case .dict: return .dict
        case .array: return .array
        }
    }

    /// The lower-case type name DivKit uses in documents and test data: "integer", "number",
    /// "string", "boolean", "color", "url", "datetime", "dict" or "array".
    public var typeName: String { type.name }

    /// How DivKit turns the value into text inside a string template (and `toString()`):
    /// `1.0` is "1.0", colours are "#AARRGGBB", datetimes "yyyy-MM-dd HH:mm:ss" (UTC),
    /// dicts and arrays compact JSON.
    public var displayString: String {
        switch self {
        case .integer(let value): return String(value)
        case .number(let value): return NumberFormatting.kotlinString(value)
        case .string(let value): return value
        case .boolean(let value): return value ? "true" : "false"
        case .color(let value): return value.hexString
        case .url(let value): return value
        case .datetime(let value): return DateFormatting.string(value)
        case .dict, .array: return JSONFormatting.string(self)
        }
    }

    /// The value as DivKit quotes it inside error messages: strings in single quotes,
    /// dicts and arrays as `<dict>`/`<array>`, everything else as its display string
    /// (e.g. `Failed to evaluate ['abc' < 7.0]`). Long strings are cut (``DiagnosticText``).
    var messageFormat: String {
        switch self {
        case .string(let whole):
            let value = DiagnosticText.cut(whole)
            // Written back as a literal: backslashes and quotes escaped again.
            guard value.contains(where: { $0 == "\\" || $0 == "'" }) else { return "'\(value)'" }
            return "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        case .dict: return "<dict>"
        case .array: return "<array>"
        default: return displayString
        }
    }
}

/// The type of an ``ExpressionValue``, used to declare function signatures.
public enum ExpressionType: String, CaseIterable, Hashable, Sendable {
    case integer, number, string, boolean, color, url, datetime, dict, array

    /// The lower-case name ("integer", "datetime", ...).
    public var name: String { rawValue }

    /// The capitalised name DivKit uses in error texts ("Integer", "DateTime", ...).
    public var displayName: String {
        switch self {
        case .integer: return "Integer"
        case .number: return "Number"
        case .string: return "String"
        case .boolean: return "Boolean"
        case .color: return "Color"
        case .url: return "Url"
        case .datetime: return "DateTime"
        case .dict: return "Dict"
        case .array: return "Array"
        }
    }
}
