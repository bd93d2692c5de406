/// One terminal cell: the grapheme cluster drawn there and its style.
///
/// `symbol` holds exactly one grapheme cluster (`" "` for a blank cell). A glyph two columns
/// wide lives in its left cell; the cell to its right is a *continuation* cell whose symbol is
/// the empty string and which draws nothing. Symbols are Strings because short ones (up to 15
/// UTF-8 bytes, i.e. every ASCII, CJK and most emoji glyphs) are stored inline without any heap
/// allocation, and equality of identical small strings is a bit compare.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown in this cell; `""` for a continuation cell.
    public var symbol: String
    /// Colours and attributes.
    public var style: CellStyle

    /// Creates a cell; by default a plain blank.
    public init(symbol: String = " ", style: CellStyle = .plain) {
        self.symbol = symbol
        self.style = style
    }

    /// A plain blank cell.
    public static let blank = Cell()

    /// The right half of a wide glyph.
    public static func continuation(style: CellStyle = .plain) -> Cell {
        Cell(symbol: "", style: style)
    }

    /// True for the right half of a wide glyph (a cell that draws nothing itself).
    public var isContinuation: Bool { symbol.isEmpty }
}
