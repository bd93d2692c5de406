import Foundation

/// Typed access to a function's arguments. Overload resolution has already checked the types,
/// so the fallbacks here are never used in practice; they keep bodies free of force-unwraps.
extension Array where Element == ExpressionValue {
    func integer(_ i: Int) -> Int { if case .integer(let v) = self[i] { return v }; return 0 }
    func number(_ i: Int) -> Double {
        switch self[i] {
        case .number(let v): return v
        case .integer(let v): return Double(v)
        default: return 0
        }
    }
    func string(_ i: Int) -> String {
        switch self[i] {
        case .string(let v), .url(let v): return v
        default: return ""
        }
    }
    func boolean(_ i: Int) -> Bool { if case .boolean(let v) = self[i] { return v }; return false }
    func color(_ i: Int) -> ExpressionColor { if case .color(let v) = self[i] { return v }; return ExpressionColor(argb: 0) }
    func array(_ i: Int) -> [ExpressionValue] { if case .array(let v) = self[i] { return v }; return [] }
    func dict(_ i: Int) -> [String: ExpressionValue] { if case .dict(let v) = self[i] { return v }; return [:] }
    func datetime(_ i: Int) -> Date { if case .datetime(let v) = self[i] { return v }; return Date(timeIntervalSince1970: 0) }
}

extension ExpressionValue {
    /// The integer, if this is an `.integer`.
    public var integerValue: Int? { if case .integer(let v) = self { return v }; return nil }
    /// The number, if this is a `.number` or an `.integer`.
    public var numberValue: Double? {
        switch self {
        case .number(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
    /// The text, if this is a `.string`.
    public var stringValue: String? { if case .string(let v) = self { return v }; return nil }
    /// The flag, if this is a `.boolean`.
    public var booleanValue: Bool? { if case .boolean(let v) = self { return v }; return nil }
    /// The items, if this is an `.array`.
    public var arrayValue: [ExpressionValue]? { if case .array(let v) = self { return v }; return nil }
    /// The entries, if this is a `.dict`.
    public var dictValue: [String: ExpressionValue]? { if case .dict(let v) = self { return v }; return nil }
}
