import CJavaScriptCore

/// Decodes a Swift value straight from a JavaScript value, reading only the properties the
/// type asks for (by cached property-name strings): the fast path for service parameters,
/// several times cheaper than building a `JSONValue` first.
///
/// It only has to be right when the value fits: any mismatch throws a bare error, and callers
/// that need a precise message decode again from a `JSONValue`. Every engine call takes the
/// engine's lock, so each value's type is asked once (`JSValueGetType`, or none for an
/// `ImmediateValue`) and decides the rest.
public final class JSValueDecoder {
    private let context: JavaScriptContext
    // Looked up for every field decoded: no exclusivity check (it is never touched from two
    // places at once) and a cheaper hash than String's.
    @exclusivity(unchecked) private var names: [Name: JSStringRef] = [:]
    /// The names used last (owned by `names`), see `withName`.
    @exclusivity(unchecked) private var recent: [(key: String, name: JSStringRef)] = []
    /// The fields a script read of the value `decode(_:from:fields:values:)` is decoding, kept
    /// here rather than in each decoder and container so that those stay small enough to copy
    /// without allocating (a `Decoder` passed as `any Decoder` fits three words inline).
    /// Read for every field: no exclusivity check (never touched from two places at once).
    @exclusivity(unchecked) fileprivate var readFields: ReadFields?
    /// The short strings decoded lately: parameters repeat keys, names and literals, and
    /// converting one (an engine copy, a UTF-8 conversion, a release) costs a number field's
    /// decoding several times over.
    private let strings: RecentStrings

    /// A property name as the cache's key, hashed with FNV-1a over its bytes (keys are short).
    private struct Name: Hashable {
        let text: String

        func hash(into hasher: inout Hasher) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hasher.combine(hash)
        }
    }

    /// A decoder for values of `context`.
    public init(context: JavaScriptContext) {
        self.context = context
        strings = RecentStrings(context: context, maximumLength: Self.keptStringLength)
    }

    /// The longest string (in UTF-8 bytes) `strings` keeps.
    static let keptStringLength = 64

    deinit {
        names.values.forEach { JSStringRelease($0) }
    }

    /// Decodes `T` from `value`.
    ///
    /// - Parameter isPlainObject: whether the caller knows `value` is an object that is no
    ///   array, date or function (the prelude checked it), which spares three engine calls.
    public func decode<T: Decodable>(_ type: T.Type, from value: JavaScriptValue, isPlainObject: Bool = false) throws -> T {
        try decode(type, from: value.ref, isPlainObject: isPlainObject)
    }

    /// Decodes `T` from `value`, at the C level (`isPlainObject` as above).
    public func decode<T: Decodable>(_ type: T.Type, from value: JSValueRef, isPlainObject: Bool = false) throws -> T {
        try context.withEngineLock {
            try T(from: ValueDecoder(owner: Unmanaged.passUnretained(self), value: value, type: isPlainObject ? kJSTypeObject : kind(of: value),
                                     isPlainObject: isPlainObject, depth: 0))
        }
    }

    /// Decodes `T` from the plain object `value` whose fields a script has read already:
    /// `values[i]` is its field `fields[i]` (`undefined` when it has none). A keyed type's
    /// fields are then taken from `values` with no engine call to read them, each of which
    /// would take the engine's lock; anything else is read from `value` itself.
    public func decode<T: Decodable>(_ type: T.Type, from value: JavaScriptValue, fields: [String],
                                     values: UnsafeBufferPointer<JSValueRef?>) throws -> T {
        precondition(fields.count == values.count, "one value for each field")
        func decodeFields() throws -> T {
            try fields.withUnsafeBufferPointer { names in
                // Saved and put back: a type's `init(from:)` may decode something else meanwhile.
                let outer = readFields
                readFields = ReadFields(names: names, values: values)
                defer { readFields = outer }
                return try T(from: ValueDecoder(owner: Unmanaged.passUnretained(self), value: value.ref, type: kJSTypeObject, isPlainObject: true, depth: 0, readsFields: true))
            }
        }
        // Numbers, booleans, null and undefined are read with no engine call (`ImmediateValue`),
        // and so are the strings decoded lately, so the lock is worth taking only for another
        // field that is a cell (a string, an object).
        guard values.contains(where: { $0.map { ImmediateValue($0) == nil && !strings.holds($0) } ?? false }) else { return try decodeFields() }
        return try context.withEngineLock(decodeFields)
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
        // A type's fields are read in the same order each time, so the names just used are
        // looked at first: comparing a short key with an equal one is cheaper than hashing it.
        if let index = recent.firstIndex(where: { $0.key == key }) { return body(recent[index].name) }
        if let name = names[Name(text: key)] {
            remember(key, name)
            return body(name)
        }
        guard names.count < Self.maximumNames else {
            let name = JavaScriptContext.makeJSString(key)
            defer { JSStringRelease(name) }
            return body(name)
        }
        return body(name(key))
    }

    /// Keeps `name` among the `recentNames` last used, the oldest going first.
    private func remember(_ key: String, _ name: JSStringRef) {
        if recent.count == Self.recentNames { recent.removeFirst() }
        recent.append((key, name))
    }

    /// How many names `withName` looks at before the cache: a struct's fields, mostly.
    static let recentNames = 8

    /// A JavaScriptCore string for a fixed property name (a field of a Swift type), created
    /// once and kept as long as the decoder; C-level, for reading fields by hand.
    public func name(_ key: String) -> JSStringRef {
        if let name = names[Name(text: key)] { return name }
        let name = JavaScriptContext.makeJSString(key)
        names[Name(text: key)] = name
        return name
    }

    /// `value`'s JavaScript type, asking the engine only for a cell that is no string kept.
    func kind(of value: JSValueRef) -> JSType {
        if let immediate = ImmediateValue(value) { return immediate.type }
        return strings.holds(value) ? kJSTypeString : JSValueGetType(ref, value)
    }

    /// A plain object: arrays, dates and functions are refused, so types that read whatever
    /// keys are there (dictionaries, JSON values) never see an array's indices as keys; the
    /// caller's slower JSON path handles those values. `type` is the value's; `isPlainObject`
    /// says the rest is known already.
    func object(_ value: JSValueRef, type: JSType, isPlainObject: Bool) throws -> JSObjectRef {
        guard type == kJSTypeObject, isPlainObject || (!JSValueIsArray(ref, value) && !JSValueIsDate(ref, value)),
              let object = JSValueToObject(ref, value, nil), isPlainObject || !JSObjectIsFunction(ref, object) else { throw Mismatch() }
        return object
    }

    /// Decodes `T` from `value` of the JavaScript type `kind`, found `depth` levels of arrays
    /// and objects down. Deeper than `JavaScriptContext.maximumJSONDepth` (or a cycle, which
    /// never ends) is a mismatch, so the caller's JSON path names the place instead of the stack
    /// running out.
    func decodeScalar<T: Decodable>(_ type: T.Type, from value: JSValueRef, kind: JSType, depth: Int) throws -> T {
        switch type {
        case is Bool.Type: return try bool(value, kind: kind) as! T
        case is String.Type: return try string(value, kind: kind) as! T
        case is Double.Type: return try double(value, kind: kind) as! T
        case is Float.Type: return Float(try double(value, kind: kind)) as! T
        case is Int.Type: return try int(value, kind: kind) as! T
        default:
            return try T(from: ValueDecoder(owner: Unmanaged.passUnretained(self), value: value, type: kind, isPlainObject: false, depth: depth))
        }
    }

    // The common scalars each have their own reader, so a struct's fields are read without
    // the dynamic casts of `decodeScalar`.

    func bool(_ value: JSValueRef, kind: JSType) throws -> Bool {
        guard kind == kJSTypeBoolean else { throw Mismatch() }
        return ImmediateValue.boolean(of: value, in: ref)
    }

    func string(_ value: JSValueRef, kind: JSType) throws -> String {
        guard kind == kJSTypeString else { throw Mismatch() }
        return strings.string(of: value)
    }

    func double(_ value: JSValueRef, kind: JSType) throws -> Double {
        guard kind == kJSTypeNumber else { throw Mismatch() }
        return ImmediateValue.number(of: value, in: ref)
    }

    /// Not through `integer`: a generic `init(exactly:)` costs more than the engine calls.
    func int(_ value: JSValueRef, kind: JSType) throws -> Int {
        guard let int = Int(exactly: try double(value, kind: kind)) else { throw Mismatch() }
        return int
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, from value: JSValueRef, kind: JSType) throws -> T {
        guard kind == kJSTypeNumber, let int = T(exactly: ImmediateValue.number(of: value, in: ref)) else { throw Mismatch() }
        return int
    }
}

/// An object's fields as a script read them, in the order of `names`; valid while the
/// `decode` given them runs. Pointers, so that looking a field up retains nothing.
private struct ReadFields {
    let names: UnsafeBufferPointer<String>
    let values: UnsafeBufferPointer<JSValueRef?>
    /// Where the next field is looked for first: a type decodes its fields in the order the
    /// names list them (`ServiceRegistry.fieldNames(of:)` is that order).
    var next = 0

    /// The value of the field `name`, nil when there is no such field.
    mutating func value(of name: String) -> JSValueRef? {
        let index: Int
        if next < names.count, names[next] == name {
            index = next
        } else if let found = names.firstIndex(of: name) {
            // A handful of short names: comparing them is cheaper than hashing one.
            index = found
        } else {
            return nil
        }
        next = index + 1
        return values[index]
    }
}

// The decoder and its containers carry no coding path: any mismatch is a bare error, and the
// caller that needs a precise message decodes again from a `JSONValue`, which has one. So each
// fits three words: passed as `any Decoder`, or copied by `KeyedDecodingContainer` for every
// field it decodes, it is copied in place, with no allocation. They hold their owner
// `unowned(unsafe)` or `Unmanaged`, so that copying one retains nothing: like the `JSValueRef`s
// they hold, they are valid only while the `decode` that made them runs, which its caller
// outlives. The decoder and the keyed container, on every field's path, borrow it where they
// use it (`_withUnsafeGuaranteedRef`): a reference loaded from an `unowned(unsafe)` field is
// retained and released around each use, two atomic operations each time.

private struct ValueDecoder: Decoder {
    let owner: Unmanaged<JSValueDecoder>
    let value: JSValueRef
    /// `value`'s JavaScript type.
    let type: JSType
    /// Whether `value` is known to be an object that is no array, date or function.
    let isPlainObject: Bool
    /// Whether `value`'s fields are `owner.readFields`, read by a script already.
    let readsFields: Bool
    /// How many arrays and objects enclose `value`.
    let depth: UInt16

    init(owner: Unmanaged<JSValueDecoder>, value: JSValueRef, type: JSType, isPlainObject: Bool, depth: Int, readsFields: Bool = false) {
        self.owner = owner
        self.value = value
        self.type = type
        self.isPlainObject = isPlainObject
        self.readsFields = readsFields
        self.depth = UInt16(depth)
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard depth < JavaScriptContext.maximumJSONDepth else { throw JSValueDecoder.Mismatch() }
        let object = readsFields ? nil : try owner._withUnsafeGuaranteedRef { try $0.object(value, type: self.type, isPlainObject: isPlainObject) }
        return KeyedDecodingContainer(Keyed(owner: owner, object: object, depth: Int(depth) + 1))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let owner = owner.takeUnretainedValue()
        guard depth < JavaScriptContext.maximumJSONDepth, self.type == kJSTypeObject, JSValueIsArray(owner.ref, value),
              let array = JSValueToObject(owner.ref, value, nil) else { throw JSValueDecoder.Mismatch() }
        let length = JSObjectGetProperty(owner.ref, array, owner.name("length"), nil).map { JSValueToNumber(owner.ref, $0, nil) } ?? 0
        guard let count = Int(exactly: length.rounded(.down)) else { throw JSValueDecoder.Mismatch() }
        return Unkeyed(owner: owner, array: array, count: count, depth: Int(depth) + 1)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(owner: owner.takeUnretainedValue(), value: value, kind: self.type, depth: Int(depth))
    }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let owner: Unmanaged<JSValueDecoder>
    /// The object, read a field at a time; nil when its fields are `owner.readFields`.
    let object: JSObjectRef?
    let depth: Int

    var codingPath: [any CodingKey] { [] }

    /// Runs `body` with the owner borrowed, not retained.
    @inline(__always)
    private func withOwner<Result>(_ body: (JSValueDecoder) throws -> Result) rethrows -> Result {
        try owner._withUnsafeGuaranteedRef(body)
    }

    var allKeys: [Key] {
        let owner = owner.takeUnretainedValue()
        if let object {
            let names = JSObjectCopyPropertyNames(owner.ref, object)!
            defer { JSPropertyNameArrayRelease(names) }
            return (0..<JSPropertyNameArrayGetCount(names)).compactMap {
                Key(stringValue: JavaScriptContext.string(JSPropertyNameArrayGetNameAtIndex(names, $0)))
            }
        }
        guard let fields = owner.readFields else { return [] }
        return zip(fields.names, fields.values).compactMap { name, value in
            guard let value, owner.kind(of: value) != kJSTypeUndefined else { return nil }
            return Key(stringValue: name)
        }
    }

    /// The property `key` and its type; nil when it is undefined. A read that throws (a
    /// getter, a proxy trap) is a mismatch, even for an optional field: the caller's JSON path
    /// then names the field and the error, where taking it as missing would hide it.
    private func member(_ key: Key) throws -> (value: JSValueRef, type: JSType)? {
        try withOwner { owner in try member(key, of: owner) }
    }

    private func member(_ key: Key, of owner: JSValueDecoder) throws -> (value: JSValueRef, type: JSType)? {
        let read: JSValueRef?
        if let object {
            var exception: JSValueRef?
            read = owner.withName(key.stringValue) { JSObjectGetProperty(owner.ref, object, $0, &exception) }
            if exception != nil { throw JSValueDecoder.Mismatch() }
        } else {
            read = owner.readFields?.value(of: key.stringValue)
        }
        guard let value = read else { return nil }
        let type = owner.kind(of: value)
        return type == kJSTypeUndefined ? nil : (value, type)
    }

    private func required(_ key: Key) throws -> (value: JSValueRef, type: JSType) {
        guard let member = try member(key), member.type != kJSTypeNull else { throw JSValueDecoder.Mismatch() }
        return member
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        let (value, kind) = try required(key)
        return try withOwner { try $0.integer(type, from: value, kind: kind) }
    }

    private func decoder(for key: Key) throws -> ValueDecoder {
        let (value, type) = try required(key)
        return ValueDecoder(owner: owner, value: value, type: type, isPlainObject: false, depth: depth)
    }

    func contains(_ key: Key) -> Bool {
        // A read that throws counts as there, so that decoding it throws.
        do { return try member(key) != nil } catch { return true }
    }
    func decodeNil(forKey key: Key) throws -> Bool { try member(key).map { $0.type == kJSTypeNull } ?? true }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { let (value, kind) = try required(key); return try withOwner { try $0.bool(value, kind: kind) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { let (value, kind) = try required(key); return try withOwner { try $0.string(value, kind: kind) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { let (value, kind) = try required(key); return try withOwner { try $0.double(value, kind: kind) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { let (value, kind) = try required(key); return Float(try withOwner { try $0.double(value, kind: kind) }) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { let (value, kind) = try required(key); return try withOwner { try $0.int(value, kind: kind) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: decoder(for: key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { throw JSValueDecoder.Mismatch() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw JSValueDecoder.Mismatch() }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    unowned(unsafe) let owner: JSValueDecoder
    let array: JSObjectRef
    let count: Int?
    let depth: Int
    var currentIndex = 0

    init(owner: JSValueDecoder, array: JSObjectRef, count: Int, depth: Int) {
        self.owner = owner
        self.array = array
        self.count = count
        self.depth = depth
    }

    var codingPath: [any CodingKey] { [] }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    /// The element at `currentIndex` and its type.
    private func current() throws -> (value: JSValueRef, type: JSType) {
        guard !isAtEnd, let value = JSObjectGetPropertyAtIndex(owner.ref, array, UInt32(currentIndex), nil) else { throw JSValueDecoder.Mismatch() }
        return (value, owner.kind(of: value))
    }

    private mutating func next() throws -> ValueDecoder {
        let (value, type) = try current()
        currentIndex += 1
        return ValueDecoder(owner: Unmanaged.passUnretained(owner), value: value, type: type, isPlainObject: false, depth: depth)
    }

    mutating func decodeNil() throws -> Bool {
        let type = try current().type
        guard type == kJSTypeNull || type == kJSTypeUndefined else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try next()
        return try owner.decodeScalar(type, from: element.value, kind: element.type, depth: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { throw JSValueDecoder.Mismatch() }
}

private struct Single: SingleValueDecodingContainer {
    unowned(unsafe) let owner: JSValueDecoder
    let value: JSValueRef
    /// `value`'s JavaScript type.
    let kind: JSType
    /// Narrow, so the container fits three words (above).
    let depth: UInt16

    init(owner: JSValueDecoder, value: JSValueRef, kind: JSType, depth: Int) {
        self.owner = owner
        self.value = value
        self.kind = kind
        self.depth = UInt16(depth)
    }

    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { kind == kJSTypeNull || kind == kJSTypeUndefined }
    func decode(_ type: Int8.Type) throws -> Int8 { try owner.integer(type, from: value, kind: kind) }
    func decode(_ type: Int16.Type) throws -> Int16 { try owner.integer(type, from: value, kind: kind) }
    func decode(_ type: Int32.Type) throws -> Int32 { try owner.integer(type, from: value, kind: kind) }
    func decode(_ type: Int64.Type) throws -> Int64 { try owner.integer(type, from: value, kind: kind) }
    func decode(_ type: UInt.Type) throws -> UInt { try owner.integer(type, from: value, kind: kind) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try owner.integer(type, from: value, kind: kind) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try owner.integer(type, from: value, kind: kind) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try owner.integer(type, from: value, kind: kind) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try owner.integer(type, from: value, kind: kind) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try owner.decodeScalar(type, from: value, kind: kind, depth: Int(depth)) }
}
