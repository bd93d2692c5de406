/// A colour as DivKit's expressions hold it: 32-bit ARGB.
public struct ExpressionColor: Hashable, Sendable, CustomStringConvertible {
    /// The colour packed as `0xAARRGGBB`.
    public var argb: UInt32

    /// Creates a colour from a packed `0xAARRGGBB` value.
    public init(argb: UInt32) { self.argb = argb }

    /// Creates a colour from its components, each 0...255.
    public init(alpha: UInt8, red: UInt8, green: UInt8, blue: UInt8) {
        argb = UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    /// Parses DivKit's colour notations `#RGB`, `#ARGB`, `#RRGGBB` and `#AARRGGBB`
    /// (hex digits in either case); `nil` for anything else. Short forms double each digit,
    /// a missing alpha is opaque.
    public init?(hex: String) {
        var scalars = Array(hex.unicodeScalars)
        guard scalars.first == "#" else { return nil }
        scalars.removeFirst()
        var digits: [UInt32] = []
        digits.reserveCapacity(scalars.count)
        for scalar in scalars {
            guard let digit = ExpressionColor.hexDigit(scalar) else { return nil }
            digits.append(digit)
        }
        switch digits.count {
        case 3, 4:
            // Short forms: each digit stands for itself twice (#F80 == #FF8800).
            digits = digits.flatMap { [$0, $0] }
        case 6, 8:
            break
        default:
            return nil
        }
        if digits.count == 6 { digits = [0xF, 0xF] + digits }
        argb = digits.reduce(0) { $0 << 4 | $1 }
    }

    /// Alpha component, 0...255.
    public var alpha: UInt8 { UInt8(truncatingIfNeeded: argb >> 24) }
    /// Red component, 0...255.
    public var red: UInt8 { UInt8(truncatingIfNeeded: argb >> 16) }
    /// Green component, 0...255.
    public var green: UInt8 { UInt8(truncatingIfNeeded: argb >> 8) }
    /// Blue component, 0...255.
    public var blue: UInt8 { UInt8(truncatingIfNeeded: argb) }

    /// `#AARRGGBB` in upper case, the form DivKit prints colours in.
    public var hexString: String {
        let digits = String(argb, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Same as ``hexString``.
    public var description: String { hexString }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 48
        case "a"..."f": return scalar.value - 87
        case "A"..."F": return scalar.value - 55
        default: return nil
        }
    }
}
