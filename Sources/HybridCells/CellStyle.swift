/// Text attributes a terminal can show (SGR 1, 2, 3, 4 and 7).
public struct TextAttributes: OptionSet, Hashable, Sendable {
    /// The raw bit set.
    public let rawValue: UInt8

    /// Creates attributes from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold / increased intensity.
    public static let bold = TextAttributes(rawValue: 1 << 0)
    /// Dim / decreased intensity.
    public static let dim = TextAttributes(rawValue: 1 << 1)
    /// Italic.
    public static let italic = TextAttributes(rawValue: 1 << 2)
    /// Underline.
    public static let underline = TextAttributes(rawValue: 1 << 3)
    /// Reverse video (swaps foreground and background; used for focus).
    public static let reverse = TextAttributes(rawValue: 1 << 4)
}

/// The look of one cell: colours (nil = the terminal's default) and attributes.
public struct CellStyle: Hashable, Sendable {
    /// Foreground colour; nil means the terminal default.
    public var foreground: Color?
    /// Background colour; nil means the terminal default.
    public var background: Color?
    /// Bold, italic and friends.
    public var attributes: TextAttributes

    /// Creates a style; every part defaults to "terminal default".
    public init(foreground: Color? = nil, background: Color? = nil, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Default colours, no attributes.
    public static let plain = CellStyle()

    /// Equal when the colours and attributes are: the same as the synthesized comparison, but
    /// over packed colours, as the encoder compares thousands of cells' styles per frame.
    @inlinable
    public static func == (lhs: CellStyle, rhs: CellStyle) -> Bool {
        lhs.attributes == rhs.attributes && Color.packed(lhs.foreground) == Color.packed(rhs.foreground)
            && Color.packed(lhs.background) == Color.packed(rhs.background)
    }

    /// True for the terminal's default look.
    public var isPlain: Bool { self == .plain }

    /// This style with `other` laid on top: `other`'s non-nil colours win and attributes are
    /// united. This is how nested styles compose (a container's background under a label's
    /// foreground, focus `reverse` on top of both).
    public func patched(with other: CellStyle) -> CellStyle {
        CellStyle(
            foreground: other.foreground ?? foreground,
            background: other.background ?? background,
            attributes: attributes.union(other.attributes)
        )
    }
}
