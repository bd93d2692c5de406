import HybridCells

/// The SGR sequences written between pairs of styles in one frame, kept for the next time
/// the same pair comes: a list's lines change the pen through the same few pairs of styles
/// hundreds of times, and working a sequence out (`StyleTransition`) cost several times
/// looking it up. Direct-mapped: a pair that collides is worked out again.
struct TransitionCache {
    private struct Entry {
        let from: UInt64
        let to: UInt64
        let bytes: [UInt8]
    }

    private static let slotCount = 64
    /// Made at the first transition, which a frame without styles never needs.
    private var slots: [Entry?] = []

    /// Appends the SGR sequence turning `current` into `target` (`StyleTransition.append`).
    mutating func append(from current: CellStyle, to target: CellStyle, into out: inout [UInt8]) {
        let (from, to) = (current.key, target.key)
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.slotCount) }
        let index = Self.slot(from, to)
        if let entry = slots[index], entry.from == from, entry.to == to {
            out.append(contentsOf: entry.bytes)
            return
        }
        var bytes: [UInt8] = []
        StyleTransition.append(from: current, to: target, into: &bytes)
        slots[index] = Entry(from: from, to: to, bytes: bytes)
        out.append(contentsOf: bytes)
    }

    /// The slot of a pair: the keys mixed as MurmurHash3 finishes (the first try, a product's
    /// top bits, put most of a frame's pairs in two slots).
    private static func slot(_ from: UInt64, _ to: UInt64) -> Int {
        var hash = from &* 0xC2B2_AE3D_27D4_EB4F ^ to
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash) & (slotCount - 1)
    }
}
