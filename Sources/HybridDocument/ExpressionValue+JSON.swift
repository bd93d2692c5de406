import HybridExpressions
import HybridJSON

extension ExpressionValue {
    /// The expression value of a state value; `null` has none (DivKit has no null).
    public init?(json: JSONValue) {
        switch json {
        case .null: return nil
        case .bool(let value): self = .boolean(value)
        case .integer(let value): self = .integer(value)
        case .number(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let items): self = .array(items.map { ExpressionValue(json: $0) ?? .string("") })
        case .object(let object):
            var dict: [String: ExpressionValue] = [:]
            for member in object {
                if let value = ExpressionValue(json: member.value) { dict[member.key] = value }
            }
            self = .dict(dict)
        }
    }

    /// The value as JSON: colours, URLs and datetimes become their text forms.
    public var json: JSONValue {
        switch self {
        case .integer(let value): return .integer(value)
        case .number(let value): return .number(value)
        case .string(let value): return .string(value)
        case .boolean(let value): return .bool(value)
        case .color, .url, .datetime: return .string(displayString)
        case .array(let items): return .array(items.map(\.json))
        case .dict(let dict): return .object(JSONObject(dict.keys.sorted().map { ($0, dict[$0]!.json) }))
        }
    }
}
