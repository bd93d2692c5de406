#if canImport(Glibc)
import Glibc
#endif
import HybridDocument
import HybridJSON

/// The span styles decoded without a problem, by their source text: a long text repeats a
/// handful of them thousands of times, and the same text always decodes the same.
///
/// Looked up for every styled span, so the text is hashed once, a word at a step, straight
/// into a table of its own (open addressing) and compared in place with `memcmp`, never copied to be
/// looked up: a `Dictionary` keyed by the text took a third of decoding a span. The document
/// is not hostile to it: a collision costs a comparison.
struct SpanStyles {
    private struct Slot {
        let hash: UInt64
        /// The style's source text (kept for comparing, one reference to the document).
        let text: ArraySlice<UInt8>
        let style: TextStyle
    }

    /// None until the first style (most decoders never meet a span style), then a power of
    /// two, at most half full.
    private var slots: [Slot?] = []
    private var count = 0

    /// The style decoded before for the text of `json`, if any.
    func style(for json: SourceJSON) -> TextStyle? {
        guard !slots.isEmpty else { return nil }
        return json.withSource { text in slots[slot(of: text, hash: Self.hash(text))]?.style }
    }

    /// Records `style` as what the text of `json` decodes to (a text known already keeps the
    /// style it has).
    mutating func insert(_ style: TextStyle, for json: SourceJSON) {
        if (count + 1) * 2 > slots.count { grow() }
        let text = json.source
        let hash = text.withUnsafeBufferPointer(Self.hash)
        let index = text.withUnsafeBufferPointer { slot(of: $0, hash: hash) }
        guard slots[index] == nil else { return }
        slots[index] = Slot(hash: hash, text: text, style: style)
        count += 1
    }

    /// The slot holding `text`, or the empty one where it would go.
    private func slot(of text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
        var index = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while let slot = slots[index], slot.hash != hash || !Self.equal(slot.text, text) {
            index = (index + 1) & (slots.count - 1)
        }
        return index
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot?](repeating: nil, count: max(16, old.count * 2))
        for case let slot? in old {
            slots[slot.text.withUnsafeBufferPointer { self.slot(of: $0, hash: slot.hash) }] = slot
        }
    }

    /// Eight bytes at a step (a byte-by-byte FNV-1a waited on a multiplication per byte,
    /// most of a lookup), each word mixed in with a multiplication and a shift.
    private static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = 0xcbf2_9ce4_8422_2325 ^ UInt64(text.count)
        guard let start = text.baseAddress else { return hash }
        let raw = UnsafeRawPointer(start)
        var offset = 0
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 32
        }
        while offset + 8 <= text.count {
            mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var last: UInt64 = 0
        for index in offset..<text.count { last |= UInt64(text[index]) << (8 * UInt64(index - offset)) }
        mix(last)
        return hash
    }

    private static func equal(_ kept: ArraySlice<UInt8>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard kept.count == text.count else { return false }
        guard let start = text.baseAddress else { return true }
        return kept.withUnsafeBufferPointer { memcmp($0.baseAddress!, start, text.count) == 0 }
    }
}
