/// A malformed JSON text: what was wrong and the byte offset where it was found.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// Byte offset of the offending character (or the end of input).
    public var offset: Int
    /// What was expected or found, e.g. `expected ',' or '}' after an object member`.
    public var message: String

    /// An error found at `offset`.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes that records where every value starts.
///
/// Written by hand because screens are parsed on the first-frame path (the benchmark scene is
/// 230 KB) and Foundation's parser neither keeps positions nor tells integers from numbers.
public enum JSONParser {
    /// The maximum nesting of arrays and objects; deeper input is rejected rather than
    /// overflowing the stack.
    public static let maximumDepth = 512

    /// How long a node list must be to be skimmed past (`deferringNodeLists`): below this,
    /// parsing it costs little more than skimming it.
    static let minimumDeferredBytes = 4096

    /// Parses one JSON value (surrounded by optional whitespace) from `bytes`.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> SourceJSON {
        try parse(bytes, deferringNodeLists: false)
    }

    /// Parses one JSON value (surrounded by optional whitespace) from `bytes`.
    /// - Parameter deferringNodeLists: Skim past large node lists (a `children` array of at
    ///   least `minimumDeferredBytes`, in an object whose `type` came first, below the top two
    ///   levels) by their brackets and strings alone, and keep them unparsed until first read
    ///   (`SourceJSON.isUnparsed`): a screen's first frame then parses what it draws. Only
    ///   an unterminated string or array, or nesting too deep, is found in them now; any other
    ///   syntax error when they are read (`SourceJSON.syntaxError`, `syntaxErrorsFoundLater`).
    public static func parse(_ bytes: [UInt8], deferringNodeLists: Bool) throws(JSONSyntaxError) -> SourceJSON {
        // Screens hold about one value per six bytes; reserving for that spares the copies of
        // growing a large tape.
        let tape = try read(bytes, reserving: bytes.count / 6 + 1, defersNodeLists: deferringNodeLists) { (reader) throws(JSONSyntaxError) in
            // A UTF-8 byte order mark, which some editors write, is no part of the value.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
            reader.skipWhitespace()
            try reader.parseValue(depth: 0)
            reader.skipWhitespace()
            if reader.index < bytes.count {
                throw reader.error("unexpected \(reader.describeCurrent()) after the end of the document")
            }
        }
        return SourceJSON(tape: tape, index: 0)
    }

    /// Parses one JSON value from text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> SourceJSON {
        try parse(Array(text.utf8))
    }

    /// Parses the array an unparsed entry stands for (its node lists deferred in turn) into a
    /// tape of its own sharing `bytes`, so offsets stay those of the document.
    static func parseUnparsed(_ entry: JSONTape.Entry, of tape: JSONTape) throws(JSONSyntaxError) -> JSONTape {
        let expected = (entry.payload - entry.offset) / 6 + 1
        return try read(tape.bytes, reserving: expected, defersNodeLists: true,
                        nodeListEnds: tape.nodeListEnds) { (reader) throws(JSONSyntaxError) in
            reader.index = entry.offset
            if !PlainValueReading.read(into: &reader, depth: Int(entry.count), expectedEntries: expected) {
                try reader.parseValue(depth: Int(entry.count))
            }
            // The skim and the parse agree on where a well-formed array ends.
            guard reader.index == entry.payload else { throw reader.error("unexpected \(reader.describeCurrent()) after an array") }
        }
    }

    /// Parses the item of the unparsed array `entry` that starts at `position` (just past the
    /// array's `[` or a `,`) into a tape of its own sharing the document's bytes, checked as
    /// `parseUnparsed` checks the whole array, up to the next item.
    /// - Parameter isFirst: Whether `position` is just past the `[` (the array may be empty).
    /// - Returns: The item (nil when the array is empty), and where the next item starts (nil
    ///   after the last).
    static func parseItem(ofUnparsedArray entry: JSONTape.Entry, in tape: JSONTape, at position: Int,
                          isFirst: Bool) throws(JSONSyntaxError) -> (item: JSONTape?, next: Int?) {
        // The array sits one level below the object holding it, its items one more.
        let depth = Int(entry.count) + 1
        var next: Int?
        var isEmpty = false
        let item = try read(tape.bytes, reserving: 64, defersNodeLists: true, nodeListEnds: tape.nodeListEnds) { (reader) throws(JSONSyntaxError) in
            if isFirst, depth > JSONParser.maximumDepth {
                throw JSONSyntaxError(offset: entry.offset, message: "nesting deeper than \(JSONParser.maximumDepth) levels")
            }
            reader.index = position
            reader.skipWhitespace()
            if reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "]") {
                guard isFirst else { throw reader.error("trailing comma before ']'") }
                isEmpty = true
                reader.index += 1
            } else {
                if !PlainValueReading.read(into: &reader, depth: depth) { try reader.parseValue(depth: depth) }
                if try reader.passArraySeparator() {
                    next = reader.index
                    return
                }
            }
            // The skim and the parse agree on where a well-formed array ends.
            guard reader.index == entry.payload else { throw reader.error("unexpected \(reader.describeCurrent()) after an array") }
        }
        return (isEmpty ? nil : item, next)
    }

    /// The tape of what `body` reads from `bytes` with a reader set up as given.
    private static func read(_ bytes: [UInt8], reserving capacity: Int, defersNodeLists: Bool, nodeListEnds: [Int: Int] = [:],
                             _ body: (inout JSONReader) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) -> JSONTape {
        let read = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> (entries: [JSONTape.Entry], nodeListEnds: [Int: Int]) in
            var reader = JSONReader(bytes: buffer)
            reader.defersNodeLists = defersNodeLists
            reader.nodeListEnds = nodeListEnds
            reader.entries.reserveCapacity(capacity)
            try body(&reader)
            return (reader.entries, reader.nodeListEnds)
        }
        return JSONTape(bytes: bytes, entries: read.entries, nodeListEnds: read.nodeListEnds)
    }
}
