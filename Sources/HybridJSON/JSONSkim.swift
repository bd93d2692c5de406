import CJSONScan
#if canImport(Glibc)
import Glibc
#endif

/// Finds where an array or object ends by its brackets and strings alone, without parsing
/// what is inside: how the parser passes a node list it keeps unparsed
/// (`JSONParser.parse(_:deferringNodeLists:)`). Valid JSON is scanned 64 bytes at a step
/// (`hybrid_json_skim`, in C for its vector instructions, 32 bytes at a compare where the
/// processor has AVX2; a block without a `[` only counts its brackets: 2.4 instructions a
/// byte on the peer scene, where every span is an object); what that scan cannot say
/// (errors, a backslash outside strings) is skimmed byte by byte, which names the error.
enum JSONSkim {
    /// The offset just past the array or object starting at `start`, inside `depth` levels
    /// of nesting. Only what a skim can see is reported: a string or the value cut off by
    /// the end of input, and nesting past `JSONParser.maximumDepth`.
    /// - Parameter listEnds: Where each `children` array met inside ends, by where it starts,
    ///   added to: when the list holding them is parsed, they are passed without a second skim.
    static func end(ofValueAt start: Int, in bytes: UnsafeBufferPointer<UInt8>, depth: Int,
                    notingListsIn listEnds: inout [Int: Int]) throws(JSONSyntaxError) -> Int {
        if let end = scannedEnd(ofValueAt: start, in: bytes, depth: depth, notingListsIn: &listEnds) { return end }
        return try endByBytes(ofValueAt: start, in: bytes, depth: depth, notingListsIn: &listEnds)
    }

    /// `end(ofValueAt:in:depth:notingListsIn:)` by the 64-byte scan, or nil where it cannot
    /// say (nothing is noted then).
    static func scannedEnd(ofValueAt start: Int, in bytes: UnsafeBufferPointer<UInt8>, depth: Int,
                           notingListsIn listEnds: inout [Int: Int]) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
              bytes[start] == UInt8(ascii: "[") || bytes[start] == UInt8(ascii: "{") else { return nil }
        // Room for the lists of a screen; a document with more is scanned again with more room.
        var capacity = 64
        while true {
            let result = withUnsafeTemporaryAllocation(of: HybridJSONListEnd.self, capacity: capacity) { ends in
                var found = 0
                let end = hybrid_json_skim(base, bytes.count, start, JSONParser.maximumDepth - depth, ends.baseAddress, capacity, &found)
                if end >= 0 {
                    for list in ends.prefix(found) { listEnds[list.start] = list.end }
                }
                return end
            }
            if result == -2 {
                capacity *= 8
                continue
            }
            return result >= 0 ? result : nil
        }
    }

    /// `end(ofValueAt:in:depth:notingListsIn:)` byte by byte: exact for any input, errors
    /// included.
    static func endByBytes(ofValueAt start: Int, in bytes: UnsafeBufferPointer<UInt8>, depth: Int,
                           notingListsIn listEnds: inout [Int: Int]) throws(JSONSyntaxError) -> Int {
        guard let base = bytes.baseAddress else { throw JSONSyntaxError(offset: start, message: "unexpected end of input inside an array") }
        let end = base + bytes.count
        var byte = base + start
        var nesting = 0
        // The `children` arrays open around the byte, with the nesting inside each.
        var openLists: [(start: Int, nesting: Int)] = []
        while byte < end {
            let value = byte.pointee
            if value == UInt8(ascii: "\"") {
                let quote = byte
                byte += 1
                while byte < end, byte.pointee != UInt8(ascii: "\"") {
                    byte += byte.pointee == UInt8(ascii: "\\") ? 2 : 1
                }
                guard byte < end else { throw JSONSyntaxError(offset: quote - base, message: "unterminated string") }
            } else if value == UInt8(ascii: "[") || value == UInt8(ascii: "{") {
                nesting += 1
                if value == UInt8(ascii: "["), nesting > 1, isChildrenValue(byte, base: base) { openLists.append((byte - base, nesting)) }
                guard depth + nesting <= JSONParser.maximumDepth else {
                    throw JSONSyntaxError(offset: byte - base, message: "nesting deeper than \(JSONParser.maximumDepth) levels")
                }
            } else if value == UInt8(ascii: "]") || value == UInt8(ascii: "}") {
                if let list = openLists.last, list.nesting == nesting {
                    listEnds[list.start] = byte - base + 1
                    openLists.removeLast()
                }
                nesting -= 1
                if nesting == 0 { return byte - base + 1 }
            }
            byte += 1
        }
        throw JSONSyntaxError(offset: bytes.count, message: "unexpected end of input inside an array")
    }

    /// Whether the `[` at `byte` is the value of a member named `children`: looked for
    /// backwards, past the colon and the closing quote of the name.
    private static func isChildrenValue(_ byte: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>) -> Bool {
        var before = byte - 1
        func skipSpaces() {
            while before >= base, before.pointee == 0x20 || before.pointee == 0x0A || before.pointee == 0x0D || before.pointee == 0x09 { before -= 1 }
        }
        skipSpaces()
        guard before >= base, before.pointee == UInt8(ascii: ":") else { return false }
        before -= 1
        skipSpaces()
        let name: StaticString = "\"children\""
        let length = name.utf8CodeUnitCount
        guard before - (length - 1) >= base else { return false }
        return memcmp(before - (length - 1), name.utf8Start, length) == 0
    }
}
