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

    /// `cluster`, one grapheme cluster (or none).
    init(_ cluster: String) {
        var cluster = cluster
        self = cluster.withUTF8 { bytes in
            if bytes.count > 15 {
                guard let number = LongSymbols.number(of: bytes) else { return CellSymbol("\u{FFFD}") }
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

    var isEmpty: Bool { low == 0 && high == 0 }

    private var isLong: Bool { high >> 56 == Self.long }

    /// How many UTF-8 bytes the cluster has.
    var utf8Count: Int {
        isLong ? LongSymbols.cluster(low).utf8.count : Int(high >> 56)
    }

    /// The cluster.
    var string: String {
        if isLong { return LongSymbols.cluster(low) }
        return withInlineBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the cluster's UTF-8 bytes to `bytes`.
    func append(to bytes: inout [UInt8]) {
        if isLong {
            bytes.append(contentsOf: LongSymbols.cluster(low).utf8)
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
/// Bounded: once `capacity` distinct clusters are numbered, a further one is drawn as U+FFFD
/// (a document of endless made-up clusters cannot grow it for ever; its cell keeps the width
/// the cluster had).
enum LongSymbols {
    /// How many clusters are kept at most.
    static let capacity = 65_536

    private struct Table {
        var clusters: [String] = []
        var numbers: [[UInt8]: Int] = [:]
    }

    private static let table = Mutex(Table())

    /// The number of the cluster whose UTF-8 is `bytes`, numbering it if it is new; nil when
    /// it is new and the table is full.
    static func number(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = Array(bytes)
        return table.withLock { table in
            if let number = table.numbers[key] { return number }
            guard table.clusters.count < capacity else { return nil }
            table.clusters.append(String(decoding: key, as: UTF8.self))
            table.numbers[key] = table.clusters.count - 1
            return table.clusters.count - 1
        }
    }

    /// The cluster numbered `number`.
    static func cluster(_ number: UInt64) -> String {
        table.withLock { $0.clusters[Int(number)] }
    }
}
