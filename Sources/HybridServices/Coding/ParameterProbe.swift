import HybridJSON

/// What `ParameterProbe` learned about a parameter type.
public struct ProbeResult: Sendable {
    /// The top-level fields in the order the type asked for them, each with its JSON type
    /// (`string`, `integer`, `number`, `boolean`, `object`, `array` or `any`) and whether the
    /// type requires it: the descriptions `hybrid.services()` shows.
    public var parameters: [ParameterDescription]
    /// Whether the type reads a keyed container with a fixed set of fields at the top, so a
    /// parameter object with other members can be rejected. False for types that read a single
    /// value or an array, and for types that enumerate whatever keys are there (a dictionary,
    /// `JSONValue`, an enum with associated values). True, with no fields, for a type that reads
    /// nothing at all: a synthesized conformance of a struct without stored properties (such as
    /// `Empty`) never asks for a container, yet takes `{}` and nothing else.
    public var isKeyed: Bool

    /// A result.
    public init(parameters: [ParameterDescription], isKeyed: Bool) {
        self.parameters = parameters
        self.isKeyed = isKeyed
    }
}

/// Finds out which fields a `Decodable` parameter type reads, so a service can be described to
/// scripts without the host writing the description by hand.
///
/// The probe runs `T.init(from:)` against a decoder that has no data: it notes each key the type
/// asks for at the top level, the type it asks for there and whether it used `decode` (required)
/// or `decodeIfPresent`/`contains` (optional), and answers with placeholders (`""`, `0`, `false`,
/// empty arrays, objects whose fields are placeholders) so the initializer runs on.
///
/// It is best effort: an initializer that rejects a placeholder (an enum whose raw values do not
/// include `""`, a validation in a custom `init(from:)`) stops the probe there, and the result
/// keeps the fields noted before it. Fields read only on some paths of a custom initializer are
/// found only if the placeholders lead down those paths.
public enum ParameterProbe {
    /// The fields `type` reads.
    public static func describe<T: Decodable>(_ type: T.Type) -> ProbeResult {
        let log = ProbeLog()
        // `JSONValue` takes anything; asking it would only see it try each container in turn.
        if T.self != JSONValue.self {
            do {
                _ = try T(from: ProbeDecoder(log: log, field: nil, codingPath: []))
                if !log.asksForContainer { log.asksForKeyedContainer = true }
            } catch {
                // Best effort: keep what was noted before the type gave up.
            }
        }
        return log.result
    }
}

/// What the probe has noted so far. Shared by reference because the containers that note
/// things are value types handed out through `Decoder`'s API.
private final class ProbeLog {
    struct Field {
        var name: String
        var type: String?
        var isRequired: Bool
    }

    var fields: [Field] = []
    var asksForContainer = false
    var asksForKeyedContainer = false
    var readsAllKeys = false

    /// Notes a read of `name`; a field read both ways is optional (`contains` then `decode`).
    func note(_ name: String, isRequired: Bool) -> Int {
        if let index = fields.firstIndex(where: { $0.name == name }) {
            fields[index].isRequired = fields[index].isRequired && isRequired
            return index
        }
        fields.append(Field(name: name, type: nil, isRequired: isRequired))
        return fields.count - 1
    }

    var result: ProbeResult {
        ProbeResult(
            parameters: fields.map { ParameterDescription(name: $0.name, type: $0.type ?? "any", isRequired: $0.isRequired) },
            isKeyed: asksForKeyedContainer && !readsAllKeys)
    }
}

/// Where the decoding of one top-level field reports what its value is. The first report wins:
/// it comes from the first container the field's type asks for, which is what shapes its JSON.
private struct FieldKind {
    let log: ProbeLog
    let index: Int

    func report(_ type: String) {
        if log.fields[index].type == nil { log.fields[index].type = type }
    }
}

private struct ProbeError: Error {}

/// The decoder with no data. Only the top-level one has a `log`; the one for a top-level field
/// has a `field` to report its kind to; deeper ones note nothing.
private struct ProbeDecoder: Decoder {
    /// Deeper than this, the probe stops: a recursive type would otherwise recurse forever.
    static let maximumDepth = 16

    let log: ProbeLog?
    let field: FieldKind?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        log?.asksForContainer = true
        log?.asksForKeyedContainer = true
        field?.report("object")
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(log: log, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        log?.asksForContainer = true
        field?.report("array")
        return ProbeUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        log?.asksForContainer = true
        return ProbeSingleValue(field: field, codingPath: codingPath)
    }

    /// A placeholder `T`, reporting its kind to `field`.
    static func placeholder<T: Decodable>(
        _ type: T.Type, field: FieldKind?, codingPath: [any CodingKey]
    ) throws -> T {
        if T.self == JSONValue.self {
            field?.report("any")
            return JSONValue.null as! T
        }
        guard codingPath.count <= maximumDepth else { throw ProbeError() }
        return try T(from: ProbeDecoder(log: nil, field: field, codingPath: codingPath))
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let log: ProbeLog?
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        log?.readsAllKeys = true
        return []
    }

    /// At the top, `contains` marks an optional field and answers yes so the type goes on to
    /// read it (and so tells its kind). Deeper, nothing is noted, and no keeps optional
    /// branches (and recursive types) from being followed.
    func contains(_ key: Key) -> Bool {
        guard let log else { return false }
        _ = log.note(key.stringValue, isRequired: false)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool { false }

    /// Notes `key` (at the top) and returns a placeholder for it.
    private func field<T: Decodable>(_ type: T.Type, _ key: Key, isRequired: Bool) throws -> T {
        let kind = log.map { FieldKind(log: $0, index: $0.note(key.stringValue, isRequired: isRequired)) }
        return try ProbeDecoder.placeholder(type, field: kind, codingPath: codingPath + [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try field(type, key, isRequired: true) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try field(type, key, isRequired: true) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(type, key, isRequired: true) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try field(type, key, isRequired: true) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(type, key, isRequired: true) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try field(type, key, isRequired: true) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try field(type, key, isRequired: true) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try field(type, key, isRequired: true) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try field(type, key, isRequired: true) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try field(type, key, isRequired: true) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try field(type, key, isRequired: true) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try field(type, key, isRequired: true) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try field(type, key, isRequired: true) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try field(type, key, isRequired: true) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try field(type, key, isRequired: true) }

    // The scalar `decodeIfPresent`s keep their default (`contains`, `decodeNil`, `decode`), which
    // notes them as optional. This one also survives a placeholder the type rejects: the field
    // is optional, so the type can go on without it.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard log != nil else { return nil }
        return try? field(type, key, isRequired: false)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder(forKey: JSONCodingKey.superKey) }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder(forKey: key) }

    /// The decoder of a required member, reporting its kind when this is the top level.
    private func decoder(forKey key: any CodingKey) -> ProbeDecoder {
        let kind = log.map { FieldKind(log: $0, index: $0.note(key.stringValue, isRequired: true)) }
        return ProbeDecoder(log: nil, field: kind, codingPath: codingPath + [key])
    }
}

/// An empty array, whose items (if a type reads some anyway) are placeholders.
private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    private var item: ProbeSingleValue { ProbeSingleValue(field: nil, codingPath: codingPath + [JSONCodingKey(intValue: 0)]) }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode(_ type: Bool.Type) throws -> Bool { item.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { item.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { item.decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { item.decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { item.decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { item.decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { item.decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { item.decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { item.decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { item.decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { item.decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { item.decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { item.decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { item.decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try item.decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try itemDecoder.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try itemDecoder.unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { itemDecoder }

    private var itemDecoder: ProbeDecoder { ProbeDecoder(log: nil, field: nil, codingPath: item.codingPath) }
}

/// A single placeholder value, reporting its kind to the field it belongs to.
private struct ProbeSingleValue: SingleValueDecodingContainer {
    let field: FieldKind?
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }

    func decode(_ type: Bool.Type) -> Bool {
        field?.report("boolean")
        return false
    }

    func decode(_ type: String.Type) -> String {
        field?.report("string")
        return ""
    }

    func decode(_ type: Double.Type) -> Double { number() }
    func decode(_ type: Float.Type) -> Float { number() }
    func decode(_ type: Int.Type) -> Int { integer() }
    func decode(_ type: Int8.Type) -> Int8 { integer() }
    func decode(_ type: Int16.Type) -> Int16 { integer() }
    func decode(_ type: Int32.Type) -> Int32 { integer() }
    func decode(_ type: Int64.Type) -> Int64 { integer() }
    func decode(_ type: UInt.Type) -> UInt { integer() }
    func decode(_ type: UInt8.Type) -> UInt8 { integer() }
    func decode(_ type: UInt16.Type) -> UInt16 { integer() }
    func decode(_ type: UInt32.Type) -> UInt32 { integer() }
    func decode(_ type: UInt64.Type) -> UInt64 { integer() }

    /// A wrapper decoding its payload from here keeps reporting to the same field.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ProbeDecoder.placeholder(type, field: field, codingPath: codingPath)
    }

    private func integer<I: FixedWidthInteger>() -> I {
        field?.report("integer")
        return 0
    }

    private func number<F: BinaryFloatingPoint>() -> F {
        field?.report("number")
        return 0
    }
}
