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
    @exclusivity(unchecked) var readFields: ReadFields?
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
