/// The fields of a style that apply to text: colours and attributes. `nil` fields inherit.
///
/// Spans keep only these (layout fields mean nothing inside a line), which keeps a span small:
/// a long text holds thousands of them, copied as the document is decoded and resolved.
public struct TextStyle: Sendable, Equatable {
    /// The text colour.
    public var color: ColorValue?
    /// The colour behind the text.
    public var background: ColorValue?
    /// Attributes: `true` sets, `false` clears what the parent set.
    public var bold: Bool?
    public var italic: Bool?
    public var underline: Bool?
    public var dim: Bool?
    public var reverse: Bool?

    /// A style with every field unset.
    public init() {}
}

extension NodeStyle {
    /// The colours and attributes of this style.
    public var textStyle: TextStyle {
        var text = TextStyle()
        text.color = color
        text.background = background
        text.bold = bold
        text.italic = italic
        text.underline = underline
        text.dim = dim
        text.reverse = reverse
        return text
    }
}
