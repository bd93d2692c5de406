/// One terminal cell: the grapheme cluster drawn there and its style.
///
/// `symbol` holds exactly one grapheme cluster (`" "` for a blank cell). A glyph two columns
/// wide lives in its left cell; the cell to its right is a *continuation* cell whose symbol is
/// the empty string and which draws nothing. A cell holds no reference (`CellSymbol`), so
/// copying and overwriting one costs no call into the runtime.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown in this cell; `""` for a continuation cell.
    public var symbol: String {
        get { storedSymbol.string }
        set { setSymbol(newValue) }
    }
    private var storedSymbol: CellSymbol
    /// Colours and attributes.
    public var style: CellStyle
    /// The symbol's byte when it is one printable ASCII character (as almost every cell's
    /// is), else 0. With `columns`, kept beside the symbol as it is set, where a write knows
    /// them already: the encoder read them from the string for every cell, about 100
    /// instructions for a byte and 1,100 for a border's or a CJK glyph's width, a third of a
    /// first frame's encoding.
    package private(set) var asciiByte: UInt8
    /// The columns the symbol takes as a terminal draws it (`DisplayWidth.ofSymbol`): 1 or 2
    /// for a glyph; 0 for a continuation's empty symbol or a zero-width one; -1 for one that
    /// cannot be printed as it is, or that is more than one glyph wide (drawn as a blank).
    package private(set) var columns: Int8

    /// Creates a cell; by default a plain blank.
    public init(symbol: String = " ", style: CellStyle = .plain) {
        storedSymbol = .empty
        asciiByte = 0
        columns = 0
        self.style = style
        setSymbol(symbol)
    }

    private mutating func setSymbol(_ symbol: String) {
        // A cluster not kept is held as a stand-in measured as it is (`CellSymbol`).
        storedSymbol = CellSymbol(symbol)
        asciiByte = DisplayWidth.printableASCIIByte(of: symbol) ?? 0
        let width = asciiByte != 0 ? 1 : DisplayWidth.ofSymbol(symbol)
        columns = (0...2).contains(width) ? Int8(width) : -1
    }

    /// Sets the symbol to the printable ASCII character `byte`: what a write of ASCII text
    /// knows without looking at the string.
    mutating func setPrintableASCII(_ byte: UInt8) {
        storedSymbol = CellSymbol(ascii: byte)
        asciiByte = byte
        columns = 1
    }

    /// Sets the symbol to one grapheme cluster a write measured: `columns` is its
    /// `DisplayWidth.of`, 1 or 2 (a cluster that takes columns holds no control character, so
    /// that is what `DisplayWidth.ofSymbol` says of it too).
    mutating func setGlyph(_ symbol: CellSymbol, asciiByte: UInt8, columns: Int) {
        storedSymbol = symbol
        self.asciiByte = asciiByte
        self.columns = Int8(columns)
    }

    /// Makes this the right half of a wide glyph (its style stays).
    mutating func setContinuation() {
        storedSymbol = .empty
        asciiByte = 0
        columns = 0
    }

    /// A plain blank cell.
    public static let blank = Cell()

    /// The right half of a wide glyph.
    public static func continuation(style: CellStyle = .plain) -> Cell {
        Cell(symbol: "", style: style)
    }

    /// True for the right half of a wide glyph (a cell that draws nothing itself).
    public var isContinuation: Bool { storedSymbol.isEmpty }

    /// How many UTF-8 bytes the symbol has.
    package var symbolUTF8Count: Int { asciiByte != 0 ? 1 : storedSymbol.utf8Count }

    /// Appends the symbol's UTF-8 bytes to `bytes`, without making it a string.
    package func appendSymbol(to bytes: inout [UInt8]) {
        if asciiByte != 0 {
            bytes.append(asciiByte)
        } else {
            storedSymbol.append(to: &bytes)
        }
    }

    /// Two cells are equal when they show the same symbol, byte for byte, in the same style
    /// (`asciiByte` and `columns` follow from the symbol). So a symbol never equals another
    /// one that is canonically equivalent to it (`K` and U+212A KELVIN SIGN, a precomposed `é`
    /// and `e` with a combining accent): a terminal is sent, and shows, different bytes.
    public static func == (lhs: Cell, rhs: Cell) -> Bool {
        lhs.storedSymbol == rhs.storedSymbol && lhs.style == rhs.style
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedSymbol)
        hasher.combine(style)
    }
}
