/// How many terminal columns text occupies.
///
/// Rules, per grapheme cluster (what a user perceives as one character):
/// - ASCII: printable characters take 1 column, control characters 0 (fast path, no table).
/// - Emoji presentation takes 2: any cluster containing VS16 (U+FE0F), a ZWJ sequence of emoji
///   (families, professions), a pair of regional indicators (a flag), or an emoji whose default
///   presentation is wide.
/// - East Asian Wide / Fullwidth code points (Unicode 15 table, CJK, Hangul, kana, fullwidth
///   forms, wide emoji) take 2.
/// - Combining marks, format characters and zero-width characters take 0 on their own; inside
///   a cluster they add nothing to the base character.
/// - Control characters (C0, DEL, C1) take 0.
/// - Everything else takes 1.
///
/// These are the widths a modern terminal (xterm, VTE, kitty, iTerm2, Windows Terminal) uses;
/// the buffer and the frame encoder rely on the same numbers, so what is laid out is what shows.
public enum DisplayWidth {
    /// Total columns of `text` (the sum over its grapheme clusters).
    @inlinable
    public static func of(_ text: some StringProtocol) -> Int {
        // Concrete types for the implementation, as in `Buffer.write` (the casts fold away).
        if let string = text as? String { return width(of: Substring(string)) }
        if let substring = text as? Substring { return width(of: substring) }
        return width(of: Substring(String(text)))
    }

    /// `of(_:)` for a concrete text type.
    @usableFromInline
    static func width(of text: Substring) -> Int {
        // ASCII fast path: every byte is its own cluster (CR LF is one cluster, but both are
        // controls of width 0 either way), so counting printable bytes is exact. Over the
        // bytes in place: walking a `Substring.UTF8View` cost about 40 instructions a byte.
        let ascii = text.utf8.withContiguousStorageIfAvailable(printableASCIICount)
            ?? Array(text.utf8).withUnsafeBufferPointer(printableASCIICount)
        if let ascii { return ascii }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// How many of `bytes` are printable when all are ASCII, else nil.
    @inline(__always)
    static func printableASCIICount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var count = 0
        for byte in bytes {
            if byte >= 0x80 { return nil }
            if printableASCII(byte) { count += 1 }
        }
        return count
    }

    /// Columns of one grapheme cluster: 0, 1 or 2.
    public static func of(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        guard let second = iterator.next() else { return of(first) }
        // A multi-scalar cluster: decide emoji presentation first, then fall back to the
        // first scalar that takes space (prepended format characters take none).
        if isRegionalIndicator(first.value) && isRegionalIndicator(second.value) { return 2 }
        var baseWidth = of(first)
        var sawJoiner = false
        var rest: Unicode.Scalar? = second
        while let scalar = rest {
            switch scalar.value {
            case 0xFE0F: return 2                    // VS16: emoji presentation requested
            case 0x200D: sawJoiner = true
            default:
                if baseWidth == 0 && !isControl(first.value) { baseWidth = of(scalar) }
            }
            rest = iterator.next()
        }
        if sawJoiner && first.value >= 0x80 && first.properties.isEmoji { return 2 }
        return baseWidth
    }

    /// Columns of a single code point on its own: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }
        if v < 0xA0 { return 0 }                      // DEL and C1 controls
        if v < 0x300 { return 1 }                     // Latin-1 and Latin extended: no table
        if UnicodeWidthTables.contains(UnicodeWidthTables.zeroWidth, v) { return 0 }
        if v < 0x1100 { return 1 }                    // nothing wide below Hangul jamo
        return UnicodeWidthTables.contains(UnicodeWidthTables.wide, v) ? 2 : 1
    }

    /// Width of a cell symbol as the frame encoder must treat it: its display width, or -1
    /// when the symbol contains a control character and must never be sent to a terminal
    /// (an escape sequence smuggled into a cell would corrupt or hijack the screen).
    @inlinable
    package static func ofSymbol(_ symbol: String) -> Int {
        let utf8 = symbol.utf8
        if utf8.count == 1 {
            // Fast path: almost every cell is one ASCII byte.
            return printableASCII(utf8.first!) ? 1 : -1
        }
        return ofLongSymbol(symbol)
    }

    /// The symbol's one byte when it is a single printable ASCII character (what almost every
    /// cell holds: one column, written as is), else nil.
    @inlinable
    package static func printableASCIIByte(of symbol: String) -> UInt8? {
        let utf8 = symbol.utf8
        guard utf8.count == 1, let byte = utf8.first, printableASCII(byte) else { return nil }
        return byte
    }

    @inlinable
    static func printableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

    /// `ofSymbol` beyond the single-byte fast path.
    @usableFromInline
    static func ofLongSymbol(_ symbol: String) -> Int {
        for scalar in symbol.unicodeScalars where isControl(scalar.value) { return -1 }
        return width(of: Substring(symbol))
    }

    @inline(__always)
    static func isControl(_ v: UInt32) -> Bool { v < 0x20 || (v >= 0x7F && v < 0xA0) }

    @inline(__always)
    static func isRegionalIndicator(_ v: UInt32) -> Bool { v >= 0x1F1E6 && v <= 0x1F1FF }
}
