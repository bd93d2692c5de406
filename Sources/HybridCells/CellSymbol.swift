import Synchronization

/// A cell's grapheme cluster held without a reference, so that a `Cell` is plain data: its
/// UTF-8 bytes inline when they fit in 15 (every ASCII, CJK and most emoji glyphs), else the
/// number of a longer cluster in `LongSymbols`.
///
/// A `String` symbol made every copy and every overwrite of a cell a call into the runtime
/// (a blank screen's buffer made and freed, each character written): about a twentieth of a
/// first frame. Two symbols are equal when their bytes are: a terminal shows canonically
/// equivalent but differently encoded clusters as the bytes it is sent.
struct CellSymbol: Hashable, Sendable {
    /// Bytes 0 to 7 of the cluster, or a long cluster's number.
    private var low: UInt64
    /// Bytes 8 to 14, then the byte count in the top byte (`long` for a long cluster).
    private var high: UInt64

    private static let long: UInt64 = 0xff

    /// The empty symbol of a continuation cell.
    static let empty = CellSymbol(low: 0, high: 0)

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The one-byte symbol `byte` (ASCII).
    init(ascii byte: UInt8) {
        low = UInt64(byte)
        high = 1 << 56
    }

    /// `cluster`, one grapheme cluster (or none); a long one is numbered in `longSymbols`.
    init(_ cluster: String, longSymbols: LongSymbols = .shared) {
        var cluster = cluster
        self = cluster.withUTF8 { bytes in
            if bytes.count > 15 {
                guard let number = longSymbols.number(of: bytes) else { return Self.standIn(for: String(decoding: bytes, as: UTF8.self)) }
                return CellSymbol(low: UInt64(number), high: Self.long << 56)
            }
            var low: UInt64 = 0, high: UInt64 = 0
            for (offset, byte) in bytes.enumerated() {
                if offset < 8 {
                    low |= UInt64(byte) << (offset * 8)
                } else {
                    high |= UInt64(byte) << ((offset - 8) * 8)
                }
            }
            return CellSymbol(low: low, high: high | UInt64(bytes.count) << 56)
        }
    }

    /// What a long cluster `LongSymbols` would not keep is drawn as: a short one that
    /// `DisplayWidth.ofSymbol` measures as it measures the cluster (and that is no printable
    /// ASCII byte, as no long cluster is), so a cell measured by the cluster stays true to its
    /// symbol and the rest of its row stays where it was.
    private static func standIn(for cluster: String) -> CellSymbol {
        switch DisplayWidth.ofSymbol(cluster) {
        case 2: CellSymbol("\u{3013}") // 〓
        case 1: CellSymbol("\u{FFFD}")
        case 0: CellSymbol("\u{301}") // a lone combining mark
        default: CellSymbol("\u{FFFD}\u{FFFD}\u{FFFD}") // wider than a glyph: drawn as a blank
        }
    }

    var isEmpty: Bool { low == 0 && high == 0 }

    /// Whether this symbol, made from `cluster`, is a stand-in for it.
    func isStandIn(for cluster: String) -> Bool {
        // Stand-ins are short: only a long cluster can have one.
        !isLong && cluster.utf8.count > 15
    }

    private var isLong: Bool { high >> 56 == Self.long }

    /// How many UTF-8 bytes the cluster has.
    var utf8Count: Int {
        isLong ? LongSymbols.bytes(numbered: low).count : Int(high >> 56)
    }

    /// The cluster.
    var string: String {
        if isLong { return String(decoding: LongSymbols.bytes(numbered: low), as: UTF8.self) }
        return withInlineBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the cluster's UTF-8 bytes to `bytes`.
    func append(to bytes: inout [UInt8]) {
        if isLong {
            bytes.append(contentsOf: LongSymbols.bytes(numbered: low))
        } else {
            withInlineBytes { bytes.append(contentsOf: $0) }
        }
    }

    private func withInlineBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let count = Int(high >> 56)
        return withUnsafeBytes(of: (low.littleEndian, high.littleEndian)) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }
}

/// The grapheme clusters longer than 15 UTF-8 bytes that cells have held (family emoji,
/// flags with tags), numbered once for the rest of the process: a cell keeps the number.
///
/// Bounded: it keeps clusters of at most `maximumLength` bytes, `capacity` of them; any other
/// is drawn as a stand-in as wide (a document of endless made-up clusters cannot grow it for
/// ever). Numbers are unique across tables, so a symbol's number always finds its bytes.
final class LongSymbols: Sendable {
    /// The table cells use.
    static let shared = LongSymbols(capacity: 65_536)

    /// The longest cluster kept, in UTF-8 bytes (a family of four with skin tones is 41).
    static let maximumLength = 64

    /// How many clusters this table keeps at most.
    let capacity: Int

    /// Every cluster numbered by any table, in number order (each kept once: its bytes are
    /// also its key in its table).
    private static let all = Mutex<[[UInt8]]>([])
    private let numbers = Mutex<[[UInt8]: Int]>([:])

    /// A table keeping at most `capacity` clusters (tests make small ones).
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The number of the cluster whose UTF-8 is `bytes`, numbering it if it is new; nil when
    /// it is too long, or new and the table is full.
    func number(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count <= Self.maximumLength else { return nil }
        let key = Array(bytes)
        return numbers.withLock { numbers in
            if let number = numbers[key] { return number }
            guard numbers.count < capacity else { return nil }
            let number = Self.all.withLock { all in
                all.append(key)
                return all.count - 1
            }
            numbers[key] = number
            return number
        }
    }

    /// The bytes of the cluster numbered `number`.
    static func bytes(numbered number: UInt64) -> [UInt8] {
        all.withLock { $0[Int(number)] }
    }
}
