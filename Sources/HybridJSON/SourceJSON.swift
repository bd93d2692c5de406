/// A JSON value parsed from a document, with the byte offset where each value and key starts,
/// so every error found later can point at its line and column.
public struct SourceJSON: Sendable {
    /// What the value is.
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case integer(Int)
        case number(Double)
        case string(String)
        case array([SourceJSON])
        case object([Member])
    }

    /// One `"key": value` pair of an object, in source order.
    public struct Member: Sendable {
        /// The key.
        public var key: String
        /// Byte offset of the key's opening quote.
        public var keyOffset: Int
        /// The value.
        public var value: SourceJSON
    }

    /// The value.
    public var kind: Kind
    /// Byte offset of the value's first character in the source.
    public var offset: Int

    /// The value without positions.
    public var plain: JSONValue {
        switch kind {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .integer(let value): return .integer(value)
        case .number(let value): return .number(value)
        case .string(let value): return .string(value)
        case .array(let items): return .array(items.map(\.plain))
        case .object(let members): return .object(JSONObject(members.map { ($0.key, $0.value.plain) }))
        }
    }

    /// A short name of the kind, for messages ("a string", "an object").
    public var kindDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The string payload, or `nil`.
    public var stringValue: String? {
        if case .string(let value) = kind { return value }
        return nil
    }

    /// The members when this is an object, or `nil`.
    public var members: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// The items when this is an array, or `nil`.
    public var items: [SourceJSON]? {
        if case .array(let items) = kind { return items }
        return nil
    }

    /// The first member named `key` when this is an object.
    public subscript(key: String) -> SourceJSON? {
        members?.first { $0.key == key }?.value
    }
}
