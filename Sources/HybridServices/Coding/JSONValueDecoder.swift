import HybridJSON

/// Decodes `Decodable` types straight from a `JSONValue`, without a round trip through JSON text.
///
/// Service parameters arrive as `JSONValue`s from scripts, so this is the decoder every service
/// call goes through. It is strict where scripts make mistakes and lenient where JSON itself is
/// ambiguous:
/// - integer types accept `.integer`, and `.number` when it is whole and in range;
///   `Double` and `Float` accept both;
/// - `Bool` accepts only `.bool` and `String` only `.string`; `.null` is nil;
/// - a `JSONValue` (or a field of that type) receives the value as it is.
///
/// Errors are standard `DecodingError`s carrying the exact coding path, with debug descriptions
/// written for script authors (`expected an integer, got "two"`, `number 300 does not fit UInt8`,
/// `missing field "sku"`); `describeDecodingError` turns them into a field path and a message.
public struct JSONValueDecoder: Sendable {
    /// Handed to the decoded types as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder with no user info.
    public init() {}

    /// Decodes a `T` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoding(value: value, codingPath: [], userInfo: userInfo).decodeValue(type)
    }
}

extension JSONValue: Decodable {
    /// Rebuilds a JSON value from any decoder. `JSONValueDecoder` hands the value over as it is;
    /// other decoders are asked for an object, an array, then each scalar kind in turn.
    ///
    /// The conformance lives here, not in HybridJSON, because only service coding needs it; if
    /// HybridJSON ever declares it, this extension must go.
    public init(from decoder: any Decoder) throws {
        if let decoding = decoder as? ValueDecoding {
            self = decoding.value
        } else if let object = try? decoder.container(keyedBy: JSONCodingKey.self) {
            var members: [(String, JSONValue)] = []
            for key in object.allKeys {
                members.append((key.stringValue, try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(JSONObject(members))
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let flag = try? single.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? single.decode(Int.self) {
                self = .integer(number)
            } else if let number = try? single.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }
}

/// The decoder for one value, which is also its own single-value container.
struct ValueDecoding: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func child(_ value: JSONValue, key: any CodingKey) -> ValueDecoding {
        ValueDecoding(value: value, codingPath: codingPath + [key], userInfo: userInfo)
    }

    /// Decodes any type here; `JSONValue` is handed over rather than rebuilt.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        return try T(from: self)
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch([String: Any].self, expected: "an object") }
        return KeyedDecodingContainer(KeyedValueContainer<Key>(object: object, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self, expected: "an array") }
        return UnkeyedValueContainer(items: items, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type, expected: "a boolean") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type, expected: "a string") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    // MARK: Scalars

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch value {
        case .integer(let number):
            guard let result = I(exactly: number) else { throw outOfRange(type, String(number)) }
            return result
        case .number(let number) where number.isFinite && number == number.rounded(.towardZero):
            guard let result = I(exactly: number) else { throw outOfRange(type, numberText(number)) }
            return result
        default:
            throw mismatch(type, expected: "an integer")
        }
    }

    private func floatingPoint<F: BinaryFloatingPoint>(_ type: F.Type) throws -> F {
        switch value {
        case .integer(let number):
            return F(number)
        case .number(let number):
            let result = F(number)
            // Only a narrowing (Double to Float) can overflow; an infinite source stays as it is.
            if result.isInfinite && number.isFinite { throw outOfRange(type, numberText(number)) }
            return result
        default:
            throw mismatch(type, expected: "a number")
        }
    }

    // MARK: Errors

    /// `expected X, got Y`: `valueNotFound` for null (as Foundation's coders report it), else
    /// `typeMismatch`.
    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath, debugDescription: "expected \(expected), got \(describeFound(value))")
        if case .null = value { return .valueNotFound(type, context) }
        return .typeMismatch(type, context)
    }

    private func outOfRange(_ type: Any.Type, _ number: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(
            codingPath: codingPath, debugDescription: "number \(number) does not fit \(type)"))
    }
}

/// The members of an object, in its order.
struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let decoder: ValueDecoding

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    /// The decoder for the member named `key`; a missing member is `keyNotFound` at this
    /// object's path.
    private func member(_ key: Key) throws -> ValueDecoding {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "missing field \(quoted(key.stringValue))"))
        }
        return decoder.child(value, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    // A missing `super` member decodes as null, as with Foundation's JSONDecoder.
    func superDecoder() throws -> any Decoder {
        decoder.child(object[JSONCodingKey.superKey.stringValue] ?? .null, key: JSONCodingKey.superKey)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(object[key.stringValue] ?? .null, key: key)
    }
}

/// The items of an array, in turn.
struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let decoder: ValueDecoding
    private(set) var currentIndex = 0

    init(items: [JSONValue], decoder: ValueDecoding) {
        self.items = items
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// Decodes the current item with `body` and moves past it only when that succeeds, as
    /// Foundation's decoder does, so a caller that catches can try another type.
    private mutating func next<T>(_ type: Any.Type, _ body: (ValueDecoding) throws -> T) throws -> T {
        let key = JSONCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription: "expected at least \(items.count + 1) items, got \(items.count)"))
        }
        let result = try body(decoder.child(items[currentIndex], key: key))
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        let isNull = try next(Any?.self) { $0.decodeNil() }
        if !isNull { currentIndex -= 1 }  // Only a null is consumed.
        return isNull
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decodeValue(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { $0 }
    }
}
