#if canImport(Glibc)
import Glibc
#endif
import HybridDocument
import HybridJSON

/// The span styles decoded without a problem, by their source text: a long text repeats a
/// handful of them thousands of times, and the same text always decodes the same.
///
/// Looked up for every styled span, so the text is hashed once with FNV-1a straight into a
/// table of its own (open addressing) and compared in place with `memcmp`, never copied to be
/// looked up: a `Dictionary` keyed by the text took a third of decoding a span. The document
/// is not hostile to it: a collision costs a comparison.
struct SpanStyles {
    private struct Slot {
        let hash: UInt64
        /// The style's source text (kept for comparing, one reference to the document).
        let text: ArraySlice<UInt8>
        let style: TextStyle
    }

    /// None until the first style, then a power of two, at most half full (a decoder is made
    /// for every line of a long list drawn, most of them with no style of their own).
    private var slots: [Slot?] = []
    private var count = 0

    /// The style decoded before for the text of `json`, if any.
    func style(for json: SourceJSON) -> TextStyle? {
        guard !slots.isEmpty else { return nil }
        return json.withSource { text in
            let hash = Self.hash(text)
            var index = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while let slot = slots[index] {
                if slot.hash == hash, Self.equal(slot.text, text) { return slot.style }
                index = (index + 1) & (slots.count - 1)
            }
            return nil
        }
    }

    /// Records `style` as what the text of `json` decodes to.
    mutating func insert(_ style: TextStyle, for json: SourceJSON) {
        guard self.style(for: json) == nil else { return }
        if (count + 1) * 2 > slots.count { grow() }
        let text = json.source
        place(Slot(hash: text.withUnsafeBufferPointer(Self.hash), text: text, style: style))
        count += 1
    }

    private mutating func place(_ slot: Slot) {
        var index = Int(truncatingIfNeeded: slot.hash) & (slots.count - 1)
        while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
        slots[index] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot?](repeating: nil, count: max(16, old.count * 2))
        for case let slot? in old { place(slot) }
    }

    private static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        // FNV's low bits, which pick the slot, mix in little of the last bytes.
        return hash ^ (hash >> 29)
    }

    private static func equal(_ kept: ArraySlice<UInt8>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard kept.count == text.count else { return false }
        guard let start = text.baseAddress else { return true }
        return kept.withUnsafeBufferPointer { memcmp($0.baseAddress!, start, text.count) == 0 }
    }
}
