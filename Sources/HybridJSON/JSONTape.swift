import Synchronization

/// The parse tree of one document, flat (as in simdjson): every value in one array in source
/// order, each container followed by its descendants and each object member's key by its value.
///
/// One allocation for the whole tree instead of one per object and array, and strings stay
/// bytes in the source until someone asks for them, so a large screen costs little to parse.
/// The lookups the decoder makes for every node are inlinable, so that walking the tree from
/// another module does not retain and release the tape for each value it looks at.
///
/// A tape may hold arrays still unparsed (`Tag.unparsedArray`, see `JSONParser.parse`): each
/// is parsed into a tape of its own when first read, kept here.
@usableFromInline
final class JSONTape: Sendable {
    /// What an entry holds.
    @usableFromInline
    enum Tag: UInt8, Sendable {
        case null, `false`, `true`, integer, number, array, object
        /// A string without escapes: its content is the source bytes between the quotes.
        case string
        /// A string with escapes, decoded again when it is read.
        case escapedString
        /// An array whose text was skimmed past, not parsed (a large node list): the offset of
        /// its `[`, the payload the offset just past its `]`, the count the nesting depth of
        /// the object it is in. `parsed(at:)` parses it when first read.
        case unparsedArray
    }

    /// One value (or member name) of the document.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var tag: Tag
        /// Items of an array, members of an object.
        @usableFromInline var count: UInt32 = 0
        /// Byte offset of the value's first character (a string's opening quote).
        @usableFromInline var offset: Int
        /// Containers: the index just past their last descendant, so siblings can be skipped.
        /// Strings: the offset of the closing quote. Integers: the value. Numbers: the bit
        /// pattern.
        @usableFromInline var payload: Int = 0
    }

    /// The document's bytes.
    @usableFromInline let bytes: [UInt8]
    /// Every value, in source order.
    @usableFromInline let entries: [Entry]

    /// The unparsed arrays parsed so far, by the index of their entry: each is parsed once, by
    /// whichever thread reads it first.
    private let parsedLater = Mutex<[Int: ParsedLater]>([:])

    /// What parsing an unparsed array gave. Not stored as a `Result`: the Swift runtime checks
    /// a generic type's requirements when it first makes the type (here that the failure is an
    /// `Error`) by a walk over all of the program's conformances, on every app's start.
    private enum ParsedLater {
        case tape(JSONTape)
        case failure(JSONSyntaxError)
    }

    /// Where the node lists skimmed so far end, by where they start, so a list inside a list
    /// is skimmed once (`JSONSkim`); handed on to the tapes of lists parsed later.
    let nodeListEnds: [Int: Int]

    init(bytes: [UInt8], entries: [Entry], nodeListEnds: [Int: Int] = [:]) {
        self.bytes = bytes
        self.entries = entries
        self.nodeListEnds = nodeListEnds
    }

    /// The unparsed array at `index`, parsed into a tape of its own (its array at index 0),
    /// or the syntax error found in it.
    @usableFromInline
    func parsed(at index: Int) -> Result<JSONTape, JSONSyntaxError> {
        parsedLater.withLock { parsed in
            switch parsed[index] {
            case .tape(let tape): return .success(tape)
            case .failure(let error): return .failure(error)
            case nil: break
            }
            do throws(JSONSyntaxError) {
                let tape = try JSONParser.parseUnparsed(entries[index], of: self)
                parsed[index] = .tape(tape)
                return .success(tape)
            } catch {
                parsed[index] = .failure(error)
                return .failure(error)
            }
        }
    }

    /// The syntax errors found so far in arrays parsed when first read, at any depth.
    var syntaxErrorsFoundLater: [JSONSyntaxError] {
        parsedLater.withLock { parsed in
            parsed.values.flatMap { result -> [JSONSyntaxError] in
                switch result {
                case .tape(let tape): return tape.syntaxErrorsFoundLater
                case .failure(let error): return [error]
                }
            }
        }
    }

    /// The index of the value after the one at `index` and its descendants.
    @inlinable
    func next(after index: Int) -> Int {
        let entry = entries[index]
        switch entry.tag {
        case .array, .object: return entry.payload
        default: return index + 1
        }
    }

    /// Calls `body` with the UTF-8 content of the string at `index` (escapes decoded).
    @inlinable
    func withUTF8<Result>(ofStringAt index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entries[index]
        guard entry.tag == .string else { return decodedString(at: index).withUnsafeBufferPointer(body) }
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[entry.offset + 1..<entry.payload])) }
    }

    /// The UTF-8 content of the escaped string at `index`, decoded.
    @usableFromInline
    func decodedString(at index: Int) -> [UInt8] {
        bytes.withUnsafeBufferPointer { bytes in
            var reader = JSONReader(bytes: bytes)
            reader.index = entries[index].offset
            // Decoded once already while parsing, so this cannot fail.
            return try! reader.decodeEscapedString()
        }
    }

    /// The offset just past the value at `index` in the source. Only strings and containers
    /// record where they end on the tape (a closing quote, the index past their descendants),
    /// so the rest is found from the source, which holds nothing but the value's own text
    /// and whitespace before the next delimiter.
    func end(of index: Int) -> Int {
        let entry = entries[index]
        switch entry.tag {
        case .string, .escapedString:
            return entry.payload + 1
        case .null, .true:
            return entry.offset + 4
        case .false:
            return entry.offset + 5
        case .integer, .number:
            var end = entry.offset + 1
            while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
            return end
        case .unparsedArray:
            return entry.payload
        case .array, .object:
            var end = entry.offset + 1
            if entry.count > 0 {
                // Objects hold key and value pairs: step from key to key, and end at a value.
                let step = entry.tag == .object ? 1 : 0
                var last = index + 1
                while next(after: last + step) < entry.payload { last = next(after: last + step) }
                end = self.end(of: last + step)
            }
            // Only whitespace stands between the last item and the closing bracket.
            while Self.isWhitespace(bytes[end]) { end += 1 }
            return end + 1
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }

    /// The string at `index`.
    @usableFromInline
    func string(at index: Int) -> String {
        withUTF8(ofStringAt: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the string at `index` is `text`, compared as bytes.
    @inlinable @inline(__always)
    func string(at index: Int, equals text: String) -> Bool {
        let entry = entries[index]
        guard entry.tag == .string else { return escapedString(at: index, equals: text) }
        // Most keys differ from the one looked for in length, which is known without reading.
        guard entry.payload - entry.offset - 1 == text.utf8.count else { return false }
        var text = text
        return text.withUTF8 { unescapedString(at: index, equals: $0) }
    }

    /// Whether the string at `index` is `text`, for names known when compiling (the bytes
    /// are read in place, without the `String` machinery).
    @inlinable @inline(__always)
    func string(at index: Int, equals text: StaticString) -> Bool {
        guard entries[index].tag == .string else { return escapedString(at: index, equals: text.description) }
        return unescapedString(at: index, equals: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether the string without escapes at `index` holds the bytes `expected`.
    @inlinable @inline(__always)
    func unescapedString(at index: Int, equals expected: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        let start = entry.offset + 1
        guard entry.payload - start == expected.count else { return false }
        return bytes.withUnsafeBufferPointer { source in
            for position in expected.indices where expected[position] != source[start + position] { return false }
            return true
        }
    }

    /// `string(at:equals:)` for a string with escapes, which must be decoded to compare.
    @usableFromInline
    func escapedString(at index: Int, equals text: String) -> Bool {
        string(at: index) == text
    }

    /// Whether the strings at two indices are equal.
    @usableFromInline
    func string(at index: Int, equalsStringAt other: Int) -> Bool {
        withUTF8(ofStringAt: index) { first in
            withUTF8(ofStringAt: other) { $0.count == first.count && $0.elementsEqual(first) }
        }
    }

    /// The tape index of the value of the first member named `key` in the object at `object`.
    @inlinable
    func value(forKey key: String, inObjectAt object: Int) -> Int? {
        var position = object + 1
        let end = entries[object].payload
        while position < end {
            if string(at: position, equals: key) { return position + 1 }
            position = next(after: position + 1)
        }
        return nil
    }

    /// Whether a member before the one whose key is at `keyIndex` in the object at `object`
    /// has the same key.
    @usableFromInline
    func hasEarlierKey(like keyIndex: Int, inObjectAt object: Int) -> Bool {
        var position = object + 1
        while position < keyIndex {
            if string(at: position, equalsStringAt: keyIndex) { return true }
            position = next(after: position + 1)
        }
        return false
    }
}
