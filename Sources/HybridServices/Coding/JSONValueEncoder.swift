import HybridJSON

/// Encodes `Encodable` values straight to a `JSONValue`, without a round trip through JSON text.
///
/// Service results go back to scripts this way. Objects keep their members in encoding order
/// (for synthesized conformances, declaration order); integer types become `.integer`, `Float`
/// and `Double` become `.number` (whole ones too, so a `Double` field keeps its kind); `nil`
/// becomes `.null`; a `JSONValue` is taken as it is.
///
/// Encoding throws `EncodingError.invalidValue` for what JSON cannot hold: NaN and infinities,
/// and integers beyond `Int`.
public struct JSONValueEncoder: Sendable {
    /// Handed to the encoded values as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An encoder with no user info.
    public init() {}

    /// The JSON value of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        if let json = Self.bare(value) { return json }
        let root = EncodingNode()
        try ValueEncoding(node: root, codingPath: [], userInfo: userInfo).encodeValue(value)
        guard !root.isUnset else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [], debugDescription: "\(T.self) encoded no value"))
        }
        return root.build()
    }

    /// A bare value (a `JSONValue`, `String`, `Bool`, `Int` or finite `Double`) as JSON, else
    /// nil. Services often answer one, and it needs no encoding machinery (nor an encoder).
    public static func bare<T: Encodable>(_ value: T) -> JSONValue? {
        // Recognised by comparing types, not by casting: each failed dynamic cast costs a sync
        // call 2%.
        if let number = Self.value(value, as: Double.self) { return number.isFinite ? .number(number) : nil }
        if let number = Self.value(value, as: Int.self) { return .integer(number) }
        if let json = Self.value(value, as: JSONValue.self) { return json }
        if let text = Self.value(value, as: String.self) { return .string(text) }
        if let flag = Self.value(value, as: Bool.self) { return .bool(flag) }
        return nil
    }

    /// `value` as a `Wanted`, when that is exactly its type (a copy of it; no subclasses or
    /// existentials, which take the general path).
    private static func value<Value, Wanted>(_ value: Value, as wanted: Wanted.Type) -> Wanted? {
        guard Value.self == Wanted.self else { return nil }
        return withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: Wanted.self) }
    }
}

extension JSONValue: Encodable {
    /// Writes the value to any encoder: `JSONValueEncoder` takes it as it is; others get an
    /// object (members in order), an array, or a scalar.
    public func encode(to encoder: any Encoder) throws {
        if let encoding = encoder as? ValueEncoding {
            encoding.node.set(self)
            return
        }
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .integer(let number):
            var single = encoder.singleValueContainer()
            try single.encode(number)
        case .number(let number):
            var single = encoder.singleValueContainer()
            try single.encode(number)
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(item) }
        case .object(let object):
            var members = encoder.container(keyedBy: JSONCodingKey.self)
            for member in object { try members.encode(member.value, forKey: JSONCodingKey(stringValue: member.key)) }
        }
    }
}

/// One value under construction. Containers hand out child nodes before their contents are
/// known, so the tree is built from references and turned into a `JSONValue` at the end.
final class EncodingNode {
    private enum Kind { case unset, value, object, array }

    private var kind = Kind.unset
    private var scalar = JSONValue.null
    /// Object member names, parallel to `children`; empty for arrays.
    private var keys: [String] = []
    private var children: [EncodingNode] = []
    private var positions: [String: Int] = [:]

    var isUnset: Bool { kind == .unset }
    var count: Int { children.count }

    /// Makes this node the finished value `value`, dropping anything encoded before.
    func set(_ value: JSONValue) {
        kind = .value
        scalar = value
        keys = []
        children = []
        positions = [:]
    }

    /// Makes this node an object; asking again keeps the members (a subclass and its superclass
    /// may share one keyed container).
    func becomeObject(at codingPath: [any CodingKey]) {
        precondition(kind == .unset || kind == .object,
                     "asked for a keyed container at \(describeCodingPath(codingPath)) after encoding another kind there")
        kind = .object
    }

    /// Makes this node an array; asking again keeps the items.
    func becomeArray(at codingPath: [any CodingKey]) {
        precondition(kind == .unset || kind == .array,
                     "asked for an unkeyed container at \(describeCodingPath(codingPath)) after encoding another kind there")
        kind = .array
    }

    /// The node of member `key`. A member encoded again keeps its first position (as
    /// `JSONObject` does); `fresh` drops what it held, which `encode(_:forKey:)` wants and nested
    /// containers do not.
    func member(_ key: String, fresh: Bool) -> EncodingNode {
        if let position = positions[key] {
            if fresh { children[position] = EncodingNode() }
            return children[position]
        }
        let node = EncodingNode()
        positions[key] = children.count
        keys.append(key)
        children.append(node)
        return node
    }

    /// A new last item.
    func appendItem() -> EncodingNode {
        let node = EncodingNode()
        children.append(node)
        return node
    }

    /// The finished value. A nested value that encoded nothing becomes `{}`, as with Foundation.
    func build() -> JSONValue {
        switch kind {
        case .unset: return .object(JSONObject())
        case .value: return scalar
        case .array: return .array(children.map { $0.build() })
        case .object:
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(children.count)
            for (key, child) in zip(keys, children) { members.append((key, child.build())) }
            return .object(JSONObject(members))
        }
    }
}

/// The encoder for one value, which is also its own single-value container.
struct ValueEncoding: Encoder, SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func child(_ node: EncodingNode, key: any CodingKey) -> ValueEncoding {
        ValueEncoding(node: node, codingPath: codingPath + [key], userInfo: userInfo)
    }

    /// Encodes any value here; a `JSONValue` is stored rather than taken apart.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let json = value as? JSONValue {
            node.set(json)
        } else {
            try value.encode(to: self)
        }
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject(at: codingPath)
        return KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray(at: codingPath)
        return UnkeyedValueEncodingContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer

    func encodeNil() { node.set(.null) }
    func encode(_ value: Bool) { node.set(.bool(value)) }
    func encode(_ value: String) { node.set(.string(value)) }
    func encode(_ value: Double) throws { node.set(try number(value, text: numberText(value))) }
    // Through Float's own shortest text, so 0.1 as a Float becomes 0.1, not 0.10000000149011612.
    func encode(_ value: Float) throws { node.set(try number(Double(value.description) ?? Double(value), text: value.description)) }
    func encode(_ value: Int) { node.set(.integer(value)) }
    func encode(_ value: Int8) throws { node.set(try integer(value)) }
    func encode(_ value: Int16) throws { node.set(try integer(value)) }
    func encode(_ value: Int32) throws { node.set(try integer(value)) }
    func encode(_ value: Int64) throws { node.set(try integer(value)) }
    func encode(_ value: UInt) throws { node.set(try integer(value)) }
    func encode(_ value: UInt8) throws { node.set(try integer(value)) }
    func encode(_ value: UInt16) throws { node.set(try integer(value)) }
    func encode(_ value: UInt32) throws { node.set(try integer(value)) }
    func encode(_ value: UInt64) throws { node.set(try integer(value)) }
    func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }

    private func integer<I: FixedWidthInteger>(_ value: I) throws -> JSONValue {
        guard let number = Int(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath, debugDescription: "number \(value) does not fit a JSON integer"))
        }
        return .integer(number)
    }

    private func number(_ value: Double, text: String) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath, debugDescription: "\(text) is not a JSON number"))
        }
        return .number(value)
    }
}

/// Writes the members of an object in the order they are encoded.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoding

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func member(_ key: Key, fresh: Bool = true) -> ValueEncoding {
        encoder.child(encoder.node.member(key.stringValue, fresh: fresh), key: key)
    }

    mutating func encodeNil(forKey key: Key) throws { member(key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { member(key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { member(key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { member(key).encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try member(key).encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        member(key, fresh: false).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        member(key, fresh: false).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.child(encoder.node.member(JSONCodingKey.superKey.stringValue, fresh: false), key: JSONCodingKey.superKey)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { member(key, fresh: false) }
}

/// Appends the items of an array.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoding

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.count }

    private func next() -> ValueEncoding {
        let key = JSONCodingKey(intValue: encoder.node.count)
        return encoder.child(encoder.node.appendItem(), key: key)
    }

    mutating func encodeNil() throws { next().encodeNil() }
    mutating func encode(_ value: Bool) throws { next().encode(value) }
    mutating func encode(_ value: String) throws { next().encode(value) }
    mutating func encode(_ value: Double) throws { try next().encode(value) }
    mutating func encode(_ value: Float) throws { try next().encode(value) }
    mutating func encode(_ value: Int) throws { next().encode(value) }
    mutating func encode(_ value: Int8) throws { try next().encode(value) }
    mutating func encode(_ value: Int16) throws { try next().encode(value) }
    mutating func encode(_ value: Int32) throws { try next().encode(value) }
    mutating func encode(_ value: Int64) throws { try next().encode(value) }
    mutating func encode(_ value: UInt) throws { try next().encode(value) }
    mutating func encode(_ value: UInt8) throws { try next().encode(value) }
    mutating func encode(_ value: UInt16) throws { try next().encode(value) }
    mutating func encode(_ value: UInt32) throws { try next().encode(value) }
    mutating func encode(_ value: UInt64) throws { try next().encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { next() }
}
