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
    @inlinable
    public var foreground: Color? {
        get { Color(packed: packedForeground) }
        set { packedForeground = Color.packed(newValue) }
    }
    /// Background colour; nil means the terminal default.
    @inlinable
    public var background: Color? {
        get { Color(packed: packedBackground) }
        set { packedBackground = Color.packed(newValue) }
    }
    /// Bold, italic and friends.
    public var attributes: TextAttributes

    // The colours are kept as `Color.packed` numbers: the encoder compares thousands of cells'
    // styles per frame and drawing patches as many, and two numbers compare and merge in a
    // few instructions where optional enums took dozens.
    @usableFromInline var packedForeground: UInt32
    @usableFromInline var packedBackground: UInt32

    /// The whole style in one number (colours and attributes), for tables keyed by styles:
    /// two styles are equal exactly when their keys are (a packed colour takes 26 bits).
    package var key: UInt64 {
        UInt64(packedForeground) << 34 | UInt64(packedBackground) << 8 | UInt64(attributes.rawValue)
    }

    /// Creates a style; every part defaults to "terminal default".
    public init(foreground: Color? = nil, background: Color? = nil, attributes: TextAttributes = []) {
        packedForeground = Color.packed(foreground)
        packedBackground = Color.packed(background)
        self.attributes = attributes
    }

    /// Default colours, no attributes.
    public static let plain = CellStyle()

    /// True for the terminal's default look.
    public var isPlain: Bool { self == .plain }

    /// This style with `other` laid on top: `other`'s colours win where it has them and
    /// attributes are united. This is how nested styles compose (a container's background
    /// under a label's foreground, focus `reverse` on top of both).
    @inlinable
    public func patched(with other: CellStyle) -> CellStyle {
        var style = self
        if other.packedForeground != 0 { style.packedForeground = other.packedForeground }
        if other.packedBackground != 0 { style.packedBackground = other.packedBackground }
        style.attributes.formUnion(other.attributes)
        return style
    }
}
