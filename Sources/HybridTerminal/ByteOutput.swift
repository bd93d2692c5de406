/// Appending escape sequences and numbers to a byte buffer without building Strings: the
/// encoder runs every frame, and formatting through `String(n)` would allocate per number.
extension Array where Element == UInt8 {
    /// Appends `ESC [`.
    @inline(__always)
    mutating func appendCSI() {
        append(0x1B)
        append(0x5B)
    }

    /// Appends `n` (≥ 0) in decimal.
    @inline(__always)
    mutating func appendDecimal(_ n: Int) {
        if n < 10 {
            append(UInt8(0x30 + n))
        } else if n < 100 {
            append(UInt8(0x30 + n / 10))
            append(UInt8(0x30 + n % 10))
        } else {
            // Highest power of ten first, so digits come out in order without a temporary.
            var divisor = 100
            while divisor <= n / 10 { divisor *= 10 }
            var value = n
            while divisor > 0 {
                append(UInt8(0x30 + value / divisor))
                value %= divisor
                divisor /= 10
            }
        }
    }

    /// Appends the ASCII bytes of a static string (escape sequence constants).
    @inline(__always)
    mutating func appendASCII(_ s: StaticString) {
        s.withUTF8Buffer { append(contentsOf: $0) }
    }
}

/// Number of decimal digits of `n` (≥ 0), for costing escape sequences before choosing one.
@inline(__always)
func decimalLength(_ n: Int) -> Int {
    if n < 10 { return 1 }
    if n < 100 { return 2 }
    if n < 1000 { return 3 }
    var count = 0
    var value = n
    while value > 0 {
        value /= 10
        count += 1
    }
    return count
}
