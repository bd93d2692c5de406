import CJSONScan

/// A few bytes and three-byte sequences to find in text together, 32 bytes at a step
/// (`hybrid_find_marks` in `CJSONScan`): one pass over the text for several words at once,
/// where a `memchr` for each word's rarest byte stops at every common one. The caller
/// compares whole words where a mark is found.
public struct ByteMarks: Sendable {
    private let marks: HybridByteMarks

    /// Marks for `singles` (one to four bytes) and `triples` (one to four sequences).
    public init(singles: [UInt8], triples: [(UInt8, UInt8, UInt8)]) {
        precondition((1...4).contains(singles.count) && (1...4).contains(triples.count), "ByteMarks holds one to four of each")
        var marks = HybridByteMarks()
        withUnsafeMutableBytes(of: &marks.singles) { $0.copyBytes(from: singles) }
        marks.singles_count = singles.count
        withUnsafeMutableBytes(of: &marks.triples) { room in
            for (index, triple) in triples.enumerated() {
                room[3 * index] = triple.0
                room[3 * index + 1] = triple.1
                room[3 * index + 2] = triple.2
            }
        }
        marks.triples_count = triples.count
        self.marks = marks
    }

    /// The first offset at or after `start` in `text` where a single byte stands or a
    /// sequence starts, or nil.
    public func first(in text: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = text.baseAddress, start < text.count else { return nil }
        let found = withUnsafePointer(to: marks) { hybrid_find_marks(base.assumingMemoryBound(to: UInt8.self), text.count, start, $0) }
        return found < 0 ? nil : found
    }
}
