/// A JSON value parsed from a document, with the byte offset where each value and key starts,
/// so every error found later can point at its line and column.
///
/// A light view into the document's parse tree: copying one copies a reference and an index,
/// and strings are decoded only when asked for.
public struct SourceJSON: Sendable {
    /// What kind of value this is; the payload is read with `boolValue`, `integerValue`,
    /// `numberValue`, `stringValue`, `items` or `members`.
    public enum Kind: Sendable, Equatable {
        case null, bool, integer, number, string, array, object
    }

    @usableFromInline let tape: JSONTape
    @usableFromInline let index: Int

    @usableFromInline
    init(tape: JSONTape, index: Int) {
        self.tape = tape
        self.index = index
    }

    @inlinable
    var entry: JSONTape.Entry { tape.entries[index] }

    /// What the value is.
    @inlinable
    public var kind: Kind {
        switch entry.tag {
        case .null: return .null
        case .false, .true: return .bool
        case .integer: return .integer
        case .number: return .number
        case .string, .escapedString: return .string
        case .array, .unparsedArray: return .array
        case .object: return .object
        }
    }

    /// Byte offset of the value's first character in the source.
    @inlinable
    public var offset: Int { entry.offset }

    /// The value's text in the source, from its first character to its last.
    public var source: ArraySlice<UInt8> {
        tape.bytes[offset..<tape.end(of: index)]
    }

    /// Calls `body` with the value's text in the source (`source`), read in place.
    public func withSource<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let end = tape.end(of: index)
        return tape.bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset..<end])) }
    }

    /// The boolean, or `nil` for other kinds.
    @inlinable
    public var boolValue: Bool? {
        switch entry.tag {
        case .false: return false
        case .true: return true
        default: return nil
        }
    }

    /// The integer (a number written without fraction or exponent), or `nil` for other kinds.
    @inlinable
    public var integerValue: Int? {
        let entry = entry
        return entry.tag == .integer ? entry.payload : nil
    }

    /// The number written with a fraction or exponent, or `nil` for other kinds (integers too).
    @inlinable
    public var numberValue: Double? {
        let entry = entry
        return entry.tag == .number ? Double(bitPattern: UInt64(UInt(bitPattern: entry.payload))) : nil
    }

    /// The string payload, or `nil`.
    @inlinable
    public var stringValue: String? {
        kind == .string ? tape.string(at: index) : nil
    }

    /// Calls `body` with the string's UTF-8 bytes (escapes decoded); `nil` for other kinds.
    @inlinable
    public func withStringUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        kind == .string ? tape.withUTF8(ofStringAt: index, body) : nil
    }

    /// The members when this is an object, or `nil`.
    @inlinable
    public var members: Members? {
        entry.tag == .object ? Members(tape: tape, object: index) : nil
    }

    /// The items when this is an array, or `nil` (an unparsed array with a syntax error too:
    /// see `syntaxError`).
    @inlinable
    public var items: Items? {
        switch entry.tag {
        case .array: return Items(tape: tape, array: index)
        case .unparsedArray: return parsed?.items
        default: return nil
        }
    }

    /// Whether this is an array the parser skimmed past (`JSONParser.parse(_:deferringNodeLists:)`),
    /// parsed when first read.
    @inlinable
    public var isUnparsed: Bool { entry.tag == .unparsedArray }

    /// The syntax error in this array when it was skimmed past and does not parse, found now.
    public var syntaxError: JSONSyntaxError? {
        guard isUnparsed, case .failure(let error) = tape.parsed(at: index) else { return nil }
        return error
    }

    /// The syntax errors found in arrays skimmed past and parsed since, anywhere in this value's
    /// document: a decoder that read them all reports these as a parse of the whole would.
    public var syntaxErrorsFoundLater: [JSONSyntaxError] { tape.syntaxErrorsFoundLater }

    /// This unparsed array, parsed; `nil` when it does not parse.
    @usableFromInline
    var parsed: SourceJSON? {
        guard case .success(let tape) = tape.parsed(at: index) else { return nil }
        return SourceJSON(tape: tape, index: 0)
    }

    /// The first member named `key` when this is an object.
    @inlinable
    public subscript(key: String) -> SourceJSON? {
        guard entry.tag == .object, let value = tape.value(forKey: key, inObjectAt: index) else { return nil }
        return SourceJSON(tape: tape, index: value)
    }

    /// The values of the members named `first` and `second` (each nil when absent), when this
    /// is an object with no other member, neither twice and no key with escapes; nil
    /// otherwise. One walk over the tape, for the many small objects of one shape (a text's
    /// spans), where a field check and a lookup for each name would walk it three times.
    @inlinable
    public func values(ofOnly first: StaticString, _ second: StaticString) -> (SourceJSON?, SourceJSON?)? {
        let object = entry
        guard object.tag == .object else { return nil }
        var firstValue: SourceJSON?, secondValue: SourceJSON?
        var key = index + 1
        while key < object.payload {
            guard tape.entries[key].tag == .string else { return nil }
            if firstValue == nil, tape.string(at: key, equals: first) {
                firstValue = SourceJSON(tape: tape, index: key + 1)
            } else if secondValue == nil, tape.string(at: key, equals: second) {
                secondValue = SourceJSON(tape: tape, index: key + 1)
            } else {
                return nil
            }
            key = tape.next(after: key + 1)
        }
        return (firstValue, secondValue)
    }

    /// How many values this one is made of: itself, and every item, member name and member
    /// value inside it at any depth. Cheap: the tape records where each container ends.
    @inlinable
    public var valueCount: Int { tape.next(after: index) - index }

    /// The value without positions.
    public var plain: JSONValue {
        switch entry.tag {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .integer: return .integer(entry.payload)
        case .number: return .number(numberValue!)
        case .string, .escapedString: return .string(tape.string(at: index))
        case .array: return .array(items!.map(\.plain))
        // A syntax error inside is reported by whoever reads the document (`syntaxErrorsFoundLater`).
        case .unparsedArray: return parsed?.plain ?? .array([])
        case .object: return .object(JSONObject(members!.map { ($0.key, $0.value.plain) }))
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
}
