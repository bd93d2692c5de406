import HybridCells

/// A small terminal that bytes written to a real one can be replayed on: cursor moves,
/// erasing, line feeds, inserting and deleting lines, wide glyphs, pending wraps, and SGR colours and attributes, so a test
/// can see the frame — characters and styles — that a person would.
public struct TerminalModel {
    /// What the screen shows.
    public private(set) var screen: Buffer
    private var x = 0
    private var y = 0
    private var pen = CellStyle.plain

    /// An empty screen of `width` by `height` cells.
    public init(width: Int, height: Int) {
        screen = Buffer(width: width, height: height)
    }

    /// The rows as text, trailing spaces trimmed.
    public func lines() -> [String] { screen.plainLines() }

    /// Replays `bytes`.
    public mutating func feed(_ bytes: [UInt8]) {
        let characters = Array(String(decoding: bytes, as: UTF8.self))
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\u{1B}":
                index = escape(characters, from: index)
            case "\r\n":
                x = 0
                lineFeed()
            case "\r":
                x = 0
            case "\n":
                lineFeed()
            default:
                put(String(character))
            }
        }
    }

    private mutating func lineFeed() {
        y = min(screen.height - 1, y + 1)
    }

    /// Reads the sequence after ESC; returns where the text goes on.
    private mutating func escape(_ characters: [Character], from start: Int) -> Int {
        guard start < characters.count else { return start }
        // Only CSI sequences move or paint; anything else (ESC 7, ESC =) is skipped.
        guard characters[start] == "[" else { return start + 1 }
        var index = start + 1
        var parameters = ""
        while index < characters.count, let scalar = characters[index].unicodeScalars.first, !(0x40...0x7E).contains(scalar.value) {
            parameters.append(characters[index])
            index += 1
        }
        guard index < characters.count else { return index }
        let final = characters[index]
        // Private modes (`?2026h` synchronized output, `?25l` the cursor) change nothing drawn.
        if parameters.hasPrefix("?") { return index + 1 }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        let count = max(1, numbers.first ?? 1)
        let (width, height) = (screen.width, screen.height)
        switch final {
        case "H", "f":
            y = min(height - 1, max(1, numbers.first ?? 1) - 1)
            x = min(width - 1, max(1, numbers.count > 1 ? numbers[1] : 1) - 1)
        case "C": x = min(width - 1, x + count)
        case "D": x = max(0, min(x, width - 1) - count)
        case "A": y = max(0, y - count)
        case "B": y = min(height - 1, y + count)
        case "G": x = min(width - 1, count - 1)
        case "K":
            // Erased cells take the pen's background only, as terminals erase (BCE).
            for column in min(x, width - 1)..<width {
                clearHalf(at: column)
                screen[column, y] = Cell(symbol: " ", style: CellStyle(background: pen.background))
            }
        case "J":
            screen = Buffer(width: width, height: height)
        case "L", "M":
            moveLines(count: min(count, height - y), inserting: final == "L")
        case "m":
            select(numbers.isEmpty ? [0] : numbers)
        default:
            break
        }
        return index + 1
    }

    /// IL and DL (no scroll region): rows from the cursor's down move by `count`, blank rows
    /// (in the pen's background, BCE) fill the gap, and the cursor goes to column 1.
    private mutating func moveLines(count: Int, inserting: Bool) {
        let (width, height) = (screen.width, screen.height)
        let rows = (0..<height).map { row in (0..<width).map { screen[$0, row] } }
        let blankRow = Array(repeating: Cell(symbol: " ", style: CellStyle(background: pen.background)), count: width)
        for row in y..<height {
            let source = inserting ? row - count : row + count
            let cells = inserting ? (source >= y ? rows[source] : blankRow) : (source < height ? rows[source] : blankRow)
            for column in 0..<width { screen[column, row] = cells[column] }
        }
        x = 0
    }

    /// SGR: the pen's colours and attributes.
    private mutating func select(_ numbers: [Int]) {
        var index = 0
        func color(_ base: Int) -> Color? {
            // 38;5;n and 38;2;r;g;b (48 for the background).
            if numbers.count > index + 2, numbers[index + 1] == 5 {
                defer { index += 2 }
                return .indexed(UInt8(clamping: numbers[index + 2]))
            }
            if numbers.count > index + 4, numbers[index + 1] == 2 {
                defer { index += 4 }
                return .rgb(UInt8(clamping: numbers[index + 2]), UInt8(clamping: numbers[index + 3]), UInt8(clamping: numbers[index + 4]))
            }
            return nil
        }
        while index < numbers.count {
            let number = numbers[index]
            switch number {
            case 0: pen = .plain
            case 1: pen.attributes.insert(.bold)
            case 2: pen.attributes.insert(.dim)
            case 3: pen.attributes.insert(.italic)
            case 4: pen.attributes.insert(.underline)
            case 7: pen.attributes.insert(.reverse)
            case 22: pen.attributes.subtract([.bold, .dim])
            case 23: pen.attributes.remove(.italic)
            case 24: pen.attributes.remove(.underline)
            case 27: pen.attributes.remove(.reverse)
            case 30...37: pen.foreground = .ansi(UInt8(number - 30))
            case 90...97: pen.foreground = .ansi(UInt8(number - 90 + 8))
            case 40...47: pen.background = .ansi(UInt8(number - 40))
            case 100...107: pen.background = .ansi(UInt8(number - 100 + 8))
            case 38: pen.foreground = color(38)
            case 48: pen.background = color(48)
            case 39: pen.foreground = nil
            case 49: pen.background = nil
            default: break
            }
            index += 1
        }
    }

    private mutating func put(_ glyph: String) {
        let width = DisplayWidth.of(glyph)
        if x >= screen.width {
            // The pending wrap of the last column.
            x = 0
            lineFeed()
        }
        for column in x..<min(screen.width, x + max(width, 1)) { clearHalf(at: column) }
        screen[x, y] = Cell(symbol: glyph, style: pen)
        if width == 2, x + 1 < screen.width { screen[x + 1, y] = .continuation(style: pen) }
        x += max(width, 1)
    }

    /// Overwriting either half of a wide glyph blanks the other half.
    private mutating func clearHalf(at column: Int) {
        if screen[column, y].isContinuation, column > 0 { screen[column - 1, y].symbol = " " }
        if column + 1 < screen.width, screen[column + 1, y].isContinuation { screen[column + 1, y].symbol = " " }
    }
}
