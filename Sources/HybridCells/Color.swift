/// A terminal colour, as written in a screen document.
///
/// Colours are stored as authored; degrading them to what the terminal can show happens only
/// when a frame is encoded (see `HybridTerminal`), so the same buffer renders on any terminal.
public enum Color: Hashable, Sendable {
    /// One of the 16 ANSI colours: 0–7 black, red, green, yellow, blue, magenta, cyan, white;
    /// 8–15 their bright variants. Values above 15 are treated as `.indexed`.
    case ansi(UInt8)
    /// An entry of the xterm 256-colour palette.
    case indexed(UInt8)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    /// A colour, or none, as one number: its kind in the top byte, its values below (0 for
    /// none). Two optional colours are equal exactly when their numbers are.
    @inlinable
    static func packed(_ color: Color?) -> UInt32 {
        switch color {
        case nil: return 0
        case .ansi(let n)?: return 1 << 24 | UInt32(n)
        case .indexed(let n)?: return 2 << 24 | UInt32(n)
        case .rgb(let r, let g, let b)?: return 3 << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
    }

    /// The colour a `packed(_:)` number stands for; nil for none.
    @inlinable
    init?(packed: UInt32) {
        let low = UInt8(truncatingIfNeeded: packed)
        switch packed >> 24 {
        case 1: self = .ansi(low)
        case 2: self = .indexed(low)
        case 3: self = .rgb(UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8), low)
        default: return nil
        }
    }

    /// The 16 ANSI colour names, in palette order (index = ANSI number).
    public static let ansiNames: [String] = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "brightBlack", "brightRed", "brightGreen", "brightYellow",
        "brightBlue", "brightMagenta", "brightCyan", "brightWhite",
    ]

    /// Parses an ANSI colour name.
    ///
    /// Accepted: the 16 names of `ansiNames` (`black` … `white`, `brightBlack` … `brightWhite`),
    /// plus `gray` / `grey` as `brightBlack`. Matching ignores case and the separators `-`, `_`
    /// and space, so `bright-red`, `bright_red` and `BrightRed` all name ANSI 9. Anything else
    /// (including `#rrggbb`; see `init?(hex:)`) returns nil.
    public init?(name: String) {
        var key = ""
        key.reserveCapacity(name.utf8.count)
        for ch in name.lowercased() where ch != "-" && ch != "_" && ch != " " { key.append(ch) }
        if key == "gray" || key == "grey" {
            self = .ansi(8)
            return
        }
        guard let index = Color.lowercasedNames.firstIndex(of: key) else { return nil }
        self = .ansi(UInt8(index))
    }

    /// Parses `#rrggbb` or `#rgb` (the `#` is optional; hex digits in either case).
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 3, let value = UInt32(digits, radix: 16) else {
            return nil
        }
        if digits.count == 6 {
            self = .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        } else {
            // #abc means #aabbcc: each digit is repeated, i.e. multiplied by 17.
            self = .rgb(UInt8(value >> 8 & 0xF) * 17, UInt8(value >> 4 & 0xF) * 17, UInt8(value & 0xF) * 17)
        }
    }

    /// The ANSI name of an `.ansi` colour (0–15), nil otherwise.
    public var name: String? {
        if case .ansi(let n) = self, n < 16 { return Color.ansiNames[Int(n)] }
        return nil
    }

    private static let lowercasedNames = ansiNames.map { $0.lowercased() }
}
