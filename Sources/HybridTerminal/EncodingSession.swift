import HybridCells

/// Layout of one row as a terminal will draw it, one entry per column.
enum GlyphKind {
    /// Drawn by the wide glyph to its left.
    static let covered: UInt8 = 0
    /// A narrow glyph: print the cell's symbol.
    static let narrow: UInt8 = 1
    /// A wide glyph's left column: print the symbol, which fills two columns.
    static let wide: UInt8 = 2
    /// A cell that cannot be printed as is (control, zero width, orphan): print a blank.
    static let substitute: UInt8 = 3
}

/// The state of one `FrameEncoder.encode` call: output, cursor, pen, and per-row scratch
/// arrays allocated once per frame (never per cell).
struct EncodingSession {
    let colors: ColorSupport
    let width: Int
    let height: Int
    let next: UnsafeBufferPointer<Cell>
    var out: [UInt8] = []
    /// Cursor column, -1 when unknown; `width` means "pending wrap" after the last column,
    /// where only absolute or carriage-return based moves are reliable.
    var cursorX = -1
    /// Cursor row, -1 when unknown.
    var cursorY = -1
    /// The terminal's current SGR state (already degraded).
    var pen = CellStyle.plain

    /// The SGR sequences written so far in this frame, by the pair of styles.
    private var transitions = TransitionCache()
    private var lastRawStyle = CellStyle.plain
    private var lastEffectiveStyle = CellStyle.plain
    /// Whether `pen` is `lastRawStyle` degraded, so that a glyph of that style needs one
    /// comparison of styles rather than two; anything that changes either clears it.
    private var penIsLastStyle = false
    private var nextKinds: [UInt8]
    private var previousKinds: [UInt8]
    /// For each column of the row being written: its symbol's byte when that is one printable
    /// ASCII character, else 0 (see `appendGlyph`).
    private var nextBytes: [UInt8]
    /// The same for the row the terminal shows there, when it shows one (see `markDirty`).
    private var previousBytes: [UInt8]
    private var dirty: [Bool]
    private var rowBase = 0
    /// `Cell.blank`, held locally: a static is a lazily initialised global, checked per access.
    private let blank = Cell.blank

    init(colors: ColorSupport, width: Int, height: Int, next: UnsafeBufferPointer<Cell>) {
        self.colors = colors
        self.width = width
        self.height = height
        self.next = next
        nextKinds = Array(repeating: GlyphKind.narrow, count: width)
        previousKinds = Array(repeating: GlyphKind.narrow, count: width)
        nextBytes = Array(repeating: 0, count: width)
        previousBytes = Array(repeating: 0, count: width)
        dirty = Array(repeating: false, count: width)
        out.reserveCapacity(64)
    }

    /// Encodes every row; `previous == nil` compares against the blank screen left by ED.
    /// With `movesLines`, rows that moved as a band are moved by the terminal first
    /// (`LineShift`) and each row is then compared with what the terminal shows there.
    mutating func encode(previous: UnsafeBufferPointer<Cell>?, movesLines: Bool = false) {
        let rows = FrameRows(previous: previous ?? UnsafeBufferPointer(start: nil, count: 0), next: next, width: width)
        guard let previous else {
            out.reserveCapacity(width * height + 64)
            for y in 0..<height {
                rowBase = y * width
                if rows.nextIsBlank(y) { continue }
                // previousKinds stays all-narrow: the erased screen is narrow blanks.
                classify(row(of: next, at: rowBase), into: &nextKinds, bytes: &nextBytes)
                markDirty(previousRow: nil)
                encodeRow(y, allowErase: false)
            }
            return
        }
        var changed = (0..<height).map { y in !rows.equal(next: y, previous: y) }
        var shift: LineShift?
        if movesLines && changed.lazy.filter({ $0 }).count >= LineShift.minimumChangedRows {
            shift = LineShift.find(previous: previous, next: next, width: width, height: height, changed: changed)
        }
        if let shift {
            cursorY = shift.append(into: &out, height: height)
            cursorX = 0
            for y in shift.top...shift.bottom {
                changed[y] = shift.source(ofRow: y).map { !rows.equal(next: y, previous: $0) } ?? !rows.nextIsBlank(y)
            }
        }
        for y in 0..<height where changed[y] {
            rowBase = y * width
            // What the terminal shows at this row: nil where a line shift left it blank.
            let previousRow = (shift.map { $0.source(ofRow: y) } ?? y).map { row(of: previous, at: $0 * width) }
            if let previousRow {
                classify(previousRow, into: &previousKinds, bytes: &previousBytes)
            } else {
                for x in 0..<width { previousKinds[x] = GlyphKind.narrow }
            }
            classify(row(of: next, at: rowBase), into: &nextKinds, bytes: &nextBytes)
            markDirty(previousRow: previousRow)
            encodeRow(y, allowErase: true)
        }
    }

    /// Leaves the pen plain.
    mutating func finish() {
        if pen != .plain {
            out.appendASCII("\u{1B}[0m")
            pen = .plain
            penIsLastStyle = false
        }
    }

    // MARK: - Rows

    /// The `width` cells of `cells` from `start`.
    private func row(of cells: UnsafeBufferPointer<Cell>, at start: Int) -> UnsafeBufferPointer<Cell> {
        UnsafeBufferPointer(rebasing: cells[start..<(start + width)])
    }

    /// Works out which columns start a glyph and how wide it is, exactly as a terminal will,
    /// and notes the byte of each one-byte ASCII glyph in `bytes` (0 for any other column), so
    /// that writing it needs no look at its string again.
    private func classify(_ row: UnsafeBufferPointer<Cell>, into kinds: inout [UInt8], bytes: inout [UInt8]) {
        // Through buffers: an array written through `inout` checks that it is unique on every
        // element written.
        kinds.withUnsafeMutableBufferPointer { kinds in
            bytes.withUnsafeMutableBufferPointer { bytes in
                var x = 0
                while x < width {
                    let byte = row[x].asciiByte
                    if byte != 0 {
                        kinds[x] = GlyphKind.narrow
                        bytes[x] = byte
                        x += 1
                        continue
                    }
                    bytes[x] = 0
                    if x + 1 < width { bytes[x + 1] = 0 }
                    switch row[x].columns {
                    case 1:
                        kinds[x] = GlyphKind.narrow
                        x += 1
                    case 2 where x + 1 < width:
                        kinds[x] = GlyphKind.wide
                        kinds[x + 1] = GlyphKind.covered
                        x += 2
                    default:
                        kinds[x] = GlyphKind.substitute
                        x += 1
                    }
                }
            }
        }
    }

    /// Marks glyph starts that must be written: a column is stale when its glyph layout
    /// changed or (for a column that draws) its cell changed; a glyph is written when any of
    /// its columns is stale.
    /// - Parameter previousRow: the row the terminal shows now; nil for a blank row.
    private mutating func markDirty(previousRow: UnsafeBufferPointer<Cell>?) {
        var x = width - 1
        var staleRight = false   // whether column x + 1 is stale
        // Where both columns hold one-byte glyphs (blank is a space) and the bytes differ, the
        // cells differ: no need to compare their strings and styles.
        let space: UInt8 = 0x20
        while x >= 0 {
            let kind = nextKinds[x]
            let byte = nextBytes[x]
            let byteBefore = previousRow == nil ? space : previousBytes[x]
            let stale = kind != previousKinds[x]
                || (kind != GlyphKind.covered
                    && ((byte != 0 && byteBefore != 0 && byte != byteBefore) || (previousRow?[x] ?? blank) != next[rowBase + x]))
            dirty[x] = stale || (kind == GlyphKind.wide && staleRight)
            staleRight = stale
            x -= 1
        }
    }

    private mutating func encodeRow(_ y: Int, allowErase: Bool) {
        let tail = blankTailStart()
        var eraseConsidered = !allowErase
        var x = 0
        while x < width {
            let kind = nextKinds[x]
            if kind == GlyphKind.covered {
                x += 1
                continue
            }
            let glyphWidth = kind == GlyphKind.wide ? 2 : 1
            guard dirty[x] else {
                x += glyphWidth
                continue
            }
            if !eraseConsidered && x >= tail {
                eraseConsidered = true
                if eraseIsShorter(from: x) {
                    moveCursor(toX: x, y: y)
                    setPen(.plain)
                    out.appendASCII("\u{1B}[K")
                    return
                }
            }
            if cursorX != x || cursorY != y { moveCursor(toX: x, y: y) }
            let style = next[rowBase + x].style
            if !penIsLastStyle || style != lastRawStyle {
                setPen(effectiveStyle(style))
                penIsLastStyle = true
            }
            appendGlyph(at: x)
            x += glyphWidth
            // The one-byte glyphs to be written right after it in the same style (most of a
            // row): their bytes, with none of the checks above, up to where the blank tail
            // may still be erased.
            let runEnd = eraseConsidered ? width : min(tail, width)
            let runStart = x
            while x < runEnd, nextBytes[x] != 0, dirty[x], next[rowBase + x].style == style { x += 1 }
            // In one copy: appending byte by byte checks the output's uniqueness and room each time.
            out.append(contentsOf: nextBytes[runStart..<x])
            cursorX = x
        }
    }

    /// First column of the row's trailing run of plain blanks (`width` when there is none).
    private func blankTailStart() -> Int {
        var x = width
        while x > 0 && nextKinds[x - 1] == GlyphKind.narrow && next[rowBase + x - 1] == blank { x -= 1 }
        return x
    }

    /// EL costs 3 bytes; writing the stale blanks costs one byte each plus a move (≥ 3 bytes)
    /// for every further run of them.
    private func eraseIsShorter(from start: Int) -> Bool {
        var cost = 0
        var inRun = false
        for x in start..<width {
            if dirty[x] {
                cost += inRun || cost == 0 ? 1 : 4
                inRun = true
            } else {
                inRun = false
            }
            if cost > 3 { return true }
        }
        return false
    }

    // MARK: - Glyphs and styles

    private mutating func appendGlyph(at x: Int) {
        let byte = nextBytes[x]
        if byte != 0 {
            out.append(byte)
            return
        }
        if nextKinds[x] == GlyphKind.substitute {
            out.append(0x20)
            return
        }
        next[rowBase + x].appendSymbol(to: &out)
    }

    /// Bytes `appendGlyph(at:)` would write.
    private func glyphLength(at x: Int) -> Int {
        nextBytes[x] != 0 || nextKinds[x] == GlyphKind.substitute ? 1 : next[rowBase + x].symbolUTF8Count
    }

    /// A cell style degraded to the terminal; consecutive cells usually share a style, so the
    /// last conversion is cached.
    private mutating func effectiveStyle(_ style: CellStyle) -> CellStyle {
        if style == lastRawStyle { return lastEffectiveStyle }
        penIsLastStyle = false
        lastRawStyle = style
        var degraded = style
        degraded.foreground = style.foreground?.degraded(to: colors)
        degraded.background = style.background?.degraded(to: colors)
        lastEffectiveStyle = degraded
        return degraded
    }

    private mutating func setPen(_ style: CellStyle) {
        penIsLastStyle = false
        guard style != pen else { return }
        transitions.append(from: pen, to: style, into: &out)
        pen = style
    }

    // MARK: - Cursor

    /// Moves the cursor to (`x`, `y`) with the shortest sequence available.
    private mutating func moveCursor(toX x: Int, y: Int) {
        if cursorY == y && cursorX == x { return }
        var best = CursorMove.absolute
        var bestCost = CursorMove.absoluteCost(x: x, y: y)
        if cursorY >= 0 && cursorX >= 0 {
            let pending = cursorX >= width
            let dy = y - cursorY
            // Carriage return, then vertical, then forward from column 0.
            let crCost = 1 + CursorMove.verticalCost(dy, lineFeeds: true) + CursorMove.horizontalCost(x)
            if crCost < bestCost {
                best = .carriageReturn
                bestCost = crCost
            }
            if dy == 0 {
                let chaCost = 3 + decimalLength(x + 1)
                if chaCost < bestCost {
                    best = .column
                    bestCost = chaCost
                }
            }
            if !pending {
                let relativeCost = CursorMove.verticalCost(dy, lineFeeds: false) + CursorMove.horizontalCost(x - cursorX)
                if relativeCost < bestCost {
                    best = .relative
                    bestCost = relativeCost
                }
                if dy == 0 && x > cursorX, let rewriteCost = rewriteCost(from: cursorX, to: x), rewriteCost < bestCost {
                    best = .rewrite
                    bestCost = rewriteCost
                }
            }
        }
        switch best {
        case .absolute:
            out.appendCSI()
            if y > 0 || x > 0 { out.appendDecimal(y + 1) }
            if x > 0 {
                out.append(0x3B)
                out.appendDecimal(x + 1)
            }
            out.append(0x48)   // "H"
        case .carriageReturn:
            out.append(0x0D)
            CursorMove.appendVertical(y - cursorY, lineFeeds: true, into: &out)
            CursorMove.appendHorizontal(x, into: &out)
        case .column:
            out.appendCSI()
            out.appendDecimal(x + 1)
            out.append(0x47)   // "G"
        case .relative:
            CursorMove.appendVertical(y - cursorY, lineFeeds: false, into: &out)
            CursorMove.appendHorizontal(x - cursorX, into: &out)
        case .rewrite:
            var c = cursorX
            while c < x {
                appendGlyph(at: c)
                c += nextKinds[c] == GlyphKind.wide ? 2 : 1
            }
        }
        cursorX = x
        cursorY = y
    }

    /// Bytes needed to reach `x` by re-printing the unchanged glyphs in between, or nil when
    /// that is not possible without style changes (or would be long anyway).
    private mutating func rewriteCost(from start: Int, to end: Int) -> Int? {
        guard end - start <= 8, nextKinds[start] != GlyphKind.covered else { return nil }
        var cost = 0
        var c = start
        while c < end {
            guard effectiveStyle(next[rowBase + c].style) == pen else { return nil }
            cost += glyphLength(at: c)
            c += nextKinds[c] == GlyphKind.wide ? 2 : 1
        }
        return c == end ? cost : nil
    }
}
