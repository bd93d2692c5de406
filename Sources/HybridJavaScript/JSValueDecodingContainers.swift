import CJavaScriptCore

// The types `JSValueDecoder` decodes with: the fields a script read, and the `Decoder` and its
// containers, apart from the decoder's caches so that each file reads in one sitting.
extension JSValueDecoder {
    /// An object's fields as a script read them, in the order of `names`; valid while the
    /// `decode` given them runs. Pointers, so that looking a field up retains nothing.
    struct ReadFields {
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

    struct ValueDecoder: Decoder {
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

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
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

    struct Unkeyed: UnkeyedDecodingContainer {
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

    struct Single: SingleValueDecodingContainer {
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
}
