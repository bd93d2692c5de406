import CJSONScan

/// The fast path of `JSONReader` for the values nearly every screen is made of (objects,
/// arrays, strings without escapes, integers, `true`, `false`, `null`), read in C
/// (`hybrid_json_read_plain_value`): the lines of a long list were read at about 30
/// instructions a byte, most of it Swift's array and bounds bookkeeping around each entry.
/// The C reader gives up on anything else, syntax errors included, and the Swift reader reads
/// that value again: errors are found and worded in one place.
package enum PlainValueReading {
    /// How many entries the first try makes room for: a list line of the benchmark scene
    /// takes about 75.
    private static let firstCapacity = 256

    /// Reads the value at `reader.index` at `depth` (as `parseValue(depth:)` would) into the
    /// reader's entries, moving past it.
    /// - Parameter expectedEntries: How many entries the value may take, when the caller can
    ///   tell (a whole list by its length): room is made for that many at the first try.
    /// - Returns: False, the reader untouched, when the value is left to `parseValue`.
    static func read(into reader: inout JSONReader, depth: Int, expectedEntries: Int? = nil) -> Bool {
        var capacity = max(firstCapacity, expectedEntries ?? 0)
        while true {
            let status = withUnsafeTemporaryAllocation(of: HybridJSONEntry.self, capacity: capacity) { buffer in
                var used = 0
                let end = hybrid_json_read_plain_value(reader.bytes.baseAddress, reader.bytes.count, reader.index, depth,
                                                       JSONParser.maximumDepth, reader.defersNodeLists ? 1 : 0,
                                                       buffer.baseAddress, capacity, &used)
                guard end >= 0 else { return end }
                append(buffer.prefix(used), to: &reader.entries)
                reader.index = end
                return 0
            }
            switch status {
            case 0: return true
            case -2: capacity *= 4
            default: return false
            }
        }
    }

    /// The entries the C reader wrote, as tape entries after those already in `entries`.
    private static func append(_ written: UnsafeMutableBufferPointer<HybridJSONEntry>.SubSequence,
                               to entries: inout [JSONTape.Entry]) {
        let base = entries.count
        // Made in place: appending one by one checks the array's uniqueness and room each time.
        let converted = [JSONTape.Entry](unsafeUninitializedCapacity: written.count) { buffer, count in
            for (index, entry) in zip(buffer.indices, written) {
                // The C reader writes only the tags it names, numbered as `JSONTape.Tag`.
                let tag = JSONTape.Tag(rawValue: entry.tag)!
                let isContainer = tag == .array || tag == .object
                buffer.initializeElement(at: index, to: JSONTape.Entry(tag: tag, count: entry.count, offset: Int(entry.offset),
                                                                        payload: isContainer ? base + Int(entry.payload) : Int(entry.payload)))
            }
            count = written.count
        }
        if base == 0 { entries = converted } else { entries += converted }
    }
}

extension PlainValueReading {
    /// Whether this path and the Swift reader read the value at `offset` of `bytes` (after
    /// any whitespace) the same: the same entries, and the same end. `nil` when this path
    /// leaves the value to the Swift reader. For the tests and the `json` fuzz target.
    package static func agreesWithSwiftReader(on bytes: [UInt8], at offset: Int = 0, deferringNodeLists: Bool) -> Bool? {
        bytes.withUnsafeBufferPointer { buffer in
            var plain = JSONReader(bytes: buffer)
            plain.defersNodeLists = deferringNodeLists
            plain.index = offset
            plain.skipWhitespace()
            var swift = plain
            guard read(into: &plain, depth: 0) else { return nil }
            do throws(JSONSyntaxError) {
                try swift.parseValue(depth: 0)
            } catch {
                return false
            }
            return plain.index == swift.index && plain.entries.count == swift.entries.count
                && zip(plain.entries, swift.entries).allSatisfy { $0.tag == $1.tag && $0.count == $1.count && $0.offset == $1.offset && $0.payload == $1.payload }
        }
    }
}
