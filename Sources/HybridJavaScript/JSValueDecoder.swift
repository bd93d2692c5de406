import CJavaScriptCore

/// Decodes a Swift value straight from a JavaScript value, reading only the properties the
/// type asks for (by cached property-name strings): the fast path for service parameters,
/// several times cheaper than building a `JSONValue` first.
///
/// It only has to be right when the value fits: any mismatch throws a bare error, and callers
/// that need a precise message decode again from a `JSONValue`.
public final class JSValueDecoder {
    private let context: JavaScriptContext
    private var names: [String: JSStringRef] = [:]

    /// A decoder for values of `context`.
    public init(context: JavaScriptContext) {
        self.context = context
    }

    deinit {
        names.values.forEach { JSStringRelease($0) }
    }

    /// Decodes `T` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JavaScriptValue) throws -> T {
        try decode(type, from: value.ref)
    }

    /// Decodes `T` from `value`, at the C level.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSValueRef) throws -> T {
        try T(from: ValueDecoder(owner: self, value: value, codingPath: [], depth: 0))
    }

    /// The first own enumerable property name of the object `value` that is not in `known`, or
    /// nil (also when `value` is no object). Names are compared as JavaScriptCore strings, so
    /// the common case, every name known, builds no Swift strings.
    public func firstUnknownKey(of value: JavaScriptValue, among known: [String]) -> String? {
        guard JSValueIsObject(ref, value.ref), let object = JSValueToObject(ref, value.ref, nil) else { return nil }
        let names = JSObjectCopyPropertyNames(ref, object)!
        defer { JSPropertyNameArrayRelease(names) }
        let knownNames = known.map(name)
        for index in 0..<JSPropertyNameArrayGetCount(names) {
            let name = JSPropertyNameArrayGetNameAtIndex(names, index)!
            if !knownNames.contains(where: { JSStringIsEqual(name, $0) }) { return JavaScriptContext.string(name) }
        }
        return nil
    }

    struct Mismatch: Error {}

    var ref: JSGlobalContextRef { context.ref }

    /// Names kept at most; keys a script makes up (dictionary fields) must not grow it forever.
    static let maximumNames = 1024

    /// Runs `body` with a JavaScriptCore string for `key`, cached while the cache has room.
    func withName<T>(_ key: String, _ body: (JSStringRef) -> T) -> T {
        if let name = names[key] { return body(name) }
        guard names.count < Self.maximumNames else {
            let name = JavaScriptContext.makeJSString(key)
            defer { JSStringRelease(name) }
            return body(name)
        }
        return body(name(key))
    }

    /// A JavaScriptCore string for a fixed property name (a field of a Swift type), created
    /// once and kept as long as the decoder; C-level, for reading fields by hand.
    public func name(_ key: String) -> JSStringRef {
        if let name = names[key] { return name }
        let name = JavaScriptContext.makeJSString(key)
        names[key] = name
        return name
    }

    /// A plain object: arrays, dates and functions are refused, so types that read whatever
    /// keys are there (dictionaries, JSON values) never see an array's indices as keys; the
    /// caller's slower JSON path handles those values.
    func object(_ value: JSValueRef) throws -> JSObjectRef {
        guard JSValueGetType(ref, value) == kJSTypeObject, !JSValueIsArray(ref, value), !JSValueIsDate(ref, value),
              let object = JSValueToObject(ref, value, nil), !JSObjectIsFunction(ref, object) else { throw Mismatch() }
        return object
    }

    /// Decodes `T` from `value`, found `depth` levels of arrays and objects down. Deeper than
    /// `JavaScriptContext.maximumJSONDepth` (or a cycle, which never ends) is a mismatch, so the
    /// caller's JSON path names the place instead of the stack running out.
    func decodeScalar<T: Decodable>(_ type: T.Type, from value: JSValueRef, depth: Int) throws -> T {
        switch type {
        case is Bool.Type:
            guard JSValueGetType(ref, value) == kJSTypeBoolean else { throw Mismatch() }
            return JSValueToBoolean(ref, value) as! T
        case is String.Type:
            guard JSValueIsString(ref, value) else { throw Mismatch() }
            return context.string(value) as! T
        case is Double.Type:
            guard JSValueIsNumber(ref, value) else { throw Mismatch() }
            return JSValueToNumber(ref, value, nil) as! T
        case is Float.Type:
            guard JSValueIsNumber(ref, value) else { throw Mismatch() }
            return Float(JSValueToNumber(ref, value, nil)) as! T
        case is Int.Type:
            guard JSValueIsNumber(ref, value), let int = Int(exactly: JSValueToNumber(ref, value, nil)) else { throw Mismatch() }
            return int as! T
        default:
            return try T(from: ValueDecoder(owner: self, value: value, codingPath: [], depth: depth))
        }
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, from value: JSValueRef) throws -> T {
        guard JSValueIsNumber(ref, value), let int = T(exactly: JSValueToNumber(ref, value, nil)) else { throw Mismatch() }
        return int
    }
}

private struct ValueDecoder: Decoder {
    let owner: JSValueDecoder
    let value: JSValueRef
    let codingPath: [any CodingKey]
    /// How many arrays and objects enclose `value`.
    let depth: Int
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard depth < JavaScriptContext.maximumJSONDepth else { throw JSValueDecoder.Mismatch() }
        return KeyedDecodingContainer(Keyed(owner: owner, object: try owner.object(value), codingPath: codingPath, depth: depth + 1))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard depth < JavaScriptContext.maximumJSONDepth, JSValueIsArray(owner.ref, value),
              let array = JSValueToObject(owner.ref, value, nil) else { throw JSValueDecoder.Mismatch() }
        let length = JSObjectGetProperty(owner.ref, array, owner.name("length"), nil).map { JSValueToNumber(owner.ref, $0, nil) } ?? 0
        guard let count = Int(exactly: length.rounded(.down)) else { throw JSValueDecoder.Mismatch() }
        return Unkeyed(owner: owner, array: array, count: count, codingPath: codingPath, depth: depth + 1)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(owner: owner, value: value, codingPath: codingPath, depth: depth)
    }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let owner: JSValueDecoder
    let object: JSObjectRef
    let codingPath: [any CodingKey]
    let depth: Int

    var allKeys: [Key] {
        let names = JSObjectCopyPropertyNames(owner.ref, object)!
        defer { JSPropertyNameArrayRelease(names) }
        return (0..<JSPropertyNameArrayGetCount(names)).compactMap {
            Key(stringValue: JavaScriptContext.string(JSPropertyNameArrayGetNameAtIndex(names, $0)))
        }
    }

    private func member(_ key: Key) -> JSValueRef? {
        guard let value = owner.withName(key.stringValue, { JSObjectGetProperty(owner.ref, object, $0, nil) }),
              !JSValueIsUndefined(owner.ref, value) else { return nil }
        return value
    }

    private func required(_ key: Key) throws -> JSValueRef {
        guard let value = member(key), !JSValueIsNull(owner.ref, value) else { throw JSValueDecoder.Mismatch() }
        return value
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { member(key).map { JSValueIsNull(owner.ref, $0) } ?? true }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try owner.decodeScalar(type, from: required(key), depth: depth) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try owner.decodeScalar(type, from: required(key), depth: depth) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try owner.decodeScalar(type, from: required(key), depth: depth) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try owner.decodeScalar(type, from: required(key), depth: depth) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try owner.decodeScalar(type, from: required(key), depth: depth) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try owner.integer(type, from: required(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try owner.integer(type, from: required(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try owner.integer(type, from: required(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try owner.integer(type, from: required(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try owner.integer(type, from: required(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try owner.integer(type, from: required(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try owner.integer(type, from: required(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try owner.integer(type, from: required(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try owner.integer(type, from: required(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        return try T(from: ValueDecoder(owner: owner, value: required(key), codingPath: codingPath + [key], depth: depth))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(owner: owner, value: required(key), codingPath: codingPath + [key], depth: depth).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(owner: owner, value: required(key), codingPath: codingPath + [key], depth: depth).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { throw JSValueDecoder.Mismatch() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw JSValueDecoder.Mismatch() }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let owner: JSValueDecoder
    let array: JSObjectRef
    let count: Int?
    let codingPath: [any CodingKey]
    let depth: Int
    var currentIndex = 0

    init(owner: JSValueDecoder, array: JSObjectRef, count: Int, codingPath: [any CodingKey], depth: Int) {
        self.owner = owner
        self.array = array
        self.count = count
        self.codingPath = codingPath
        self.depth = depth
    }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private mutating func next() throws -> JSValueRef {
        guard !isAtEnd, let value = JSObjectGetPropertyAtIndex(owner.ref, array, UInt32(currentIndex), nil) else { throw JSValueDecoder.Mismatch() }
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, let value = JSObjectGetPropertyAtIndex(owner.ref, array, UInt32(currentIndex), nil) else { throw JSValueDecoder.Mismatch() }
        if JSValueIsNull(owner.ref, value) || JSValueIsUndefined(owner.ref, value) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try next()
        return try owner.decodeScalar(type, from: value, depth: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(owner: owner, value: next(), codingPath: codingPath, depth: depth).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(owner: owner, value: next(), codingPath: codingPath, depth: depth).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { throw JSValueDecoder.Mismatch() }
}

private struct Single: SingleValueDecodingContainer {
    let owner: JSValueDecoder
    let value: JSValueRef
    let codingPath: [any CodingKey]
    let depth: Int

    func decodeNil() -> Bool { JSValueIsNull(owner.ref, value) || JSValueIsUndefined(owner.ref, value) }
    func decode(_ type: Int8.Type) throws -> Int8 { try owner.integer(type, from: value) }
    func decode(_ type: Int16.Type) throws -> Int16 { try owner.integer(type, from: value) }
    func decode(_ type: Int32.Type) throws -> Int32 { try owner.integer(type, from: value) }
    func decode(_ type: Int64.Type) throws -> Int64 { try owner.integer(type, from: value) }
    func decode(_ type: UInt.Type) throws -> UInt { try owner.integer(type, from: value) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try owner.integer(type, from: value) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try owner.integer(type, from: value) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try owner.integer(type, from: value) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try owner.integer(type, from: value) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try owner.decodeScalar(type, from: value, depth: depth) }
}
