extension Buffer {
    /// Writes `text` at (`x`, `y`), clipped to `limit` columns and to the buffer.
    ///
    /// - Grapheme clusters are never split, and a 2-column glyph that does not fit entirely
    ///   stops the write: the column it would have half-covered is left as it was.
    /// - `style` is patched over each touched cell's style (`CellStyle.patched(with:)`), so a
    ///   background painted by a container shows through text that sets only a foreground.
    /// - A tab is drawn as one blank column; other control characters (and combining marks
    ///   with no base) are dropped, so text can never inject escape sequences.
    /// - Overwriting half of an existing wide glyph blanks its other half.
    /// - `x` may be negative (text scrolled left): columns before 0 are consumed but not drawn;
    ///   a wide glyph straddling column 0 shows as a blank there.
    ///
    /// Returns the columns consumed from `x` (including any clipped on the left), so spans can
    /// be chained: write the next span at `x + used` with `limit - used`.
    @inlinable @discardableResult
    public mutating func write(
        _ text: some StringProtocol, x: Int, y: Int, limit: Int, style: CellStyle
    ) -> Int {
        // Hand a concrete type to the implementation: an unspecialised generic across the
        // module boundary would walk the text through witness tables, several times slower.
        // After specialisation for String or Substring these casts fold away.
        if let string = text as? String {
            return writeText(Substring(string), x: x, y: y, limit: limit, style: style)
        }
        if let substring = text as? Substring {
            return writeText(substring, x: x, y: y, limit: limit, style: style)
        }
        return writeText(Substring(String(text)), x: x, y: y, limit: limit, style: style)
    }

    /// `write` for a concrete text type.
    @usableFromInline
    mutating func writeText(_ text: Substring, x: Int, y: Int, limit: Int, style: CellStyle) -> Int {
        guard y >= 0, y < height, limit > 0, x < width, x > Int.min / 4 else { return 0 }
        let end = limit >= width - x ? width : x + limit
        let rowBase = y * width
        var col = x
        var fresh = true
        let wroteASCII = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            // Fast path, over the bytes in place: one cell per printable byte.
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            col = cells.withUnsafeMutableBufferPointer { cells -> Int in
                var col = x
                for var byte in bytes {
                    if byte == 0x09 {
                        byte = 0x20
                    } else if !DisplayWidth.printableASCII(byte) {
                        continue
                    }
                    if col >= end { break }
                    if col >= 0 {
                        let i = rowBase + col
                        if fresh {
                            fresh = false
                            if col > 0 && cells[i].isContinuation { cells[i - 1].setPrintableASCII(0x20) }
                        }
                        cells[i].setPrintableASCII(byte)
                        cells[i].style = cells[i].style.patched(with: style)
                    }
                    col += 1
                }
                return col
            }
            return true
        } ?? false
        if !wroteASCII {
            for character in text {
                guard let glyph = Glyph(character) else { continue }
                guard let next = place(glyph, column: col, end: end, rowBase: rowBase, style: style, fresh: &fresh) else { break }
                col = next
            }
        }
        endWrite(at: col, rowBase: rowBase, fresh: fresh)
        return col - x
    }

    /// Writes `glyph` `count` times from (`x`, `y`), exactly as `write` would write the text
    /// of them (clipped to `limit` columns and to the buffer, returning the columns used),
    /// without building that text and breaking it into glyphs again: rules and borders.
    @discardableResult
    public mutating func write(repeating glyph: Character, count: Int, x: Int, y: Int, limit: Int, style: CellStyle) -> Int {
        guard y >= 0, y < height, limit > 0, x < width, x > Int.min / 4, count > 0, let glyph = Glyph(glyph) else { return 0 }
        let end = limit >= width - x ? width : x + limit
        let rowBase = y * width
        var col = x
        var fresh = true
        for _ in 0..<count {
            guard let next = place(glyph, column: col, end: end, rowBase: rowBase, style: style, fresh: &fresh) else { break }
            col = next
        }
        endWrite(at: col, rowBase: rowBase, fresh: fresh)
        return col - x
    }

    /// One character as drawn: its symbol and columns; nil for one that draws nothing.
    private struct Glyph {
        let symbol: CellSymbol
        /// The symbol's byte when it is one printable ASCII character, else 0.
        let asciiByte: UInt8
        let width: Int

        init?(_ character: Character) {
            let width = DisplayWidth.of(character)
            if width > 0 {
                let text = String(character)
                symbol = CellSymbol(text)
                if symbol.isStandIn(for: text) {
                    // A cluster not kept: the glyph is its stand-in, measured as such.
                    (asciiByte, self.width) = (0, DisplayWidth.ofSymbol(symbol.string))
                } else {
                    asciiByte = width == 1 ? DisplayWidth.printableASCIIByte(of: text) ?? 0 : 0
                    self.width = width
                }
            } else if character == "\t" {
                self = .blank
            } else {
                return nil
            }
        }

        private init(symbol: CellSymbol, asciiByte: UInt8, width: Int) {
            self.symbol = symbol
            self.asciiByte = asciiByte
            self.width = width
        }

        static let blank = Glyph(symbol: CellSymbol(ascii: 0x20), asciiByte: 0x20, width: 1)
    }

    /// Puts `glyph` at `column` of a write ending at `end`, clipped; returns the column after
    /// it, or nil when it does not fit and the write stops.
    private mutating func place(_ glyph: Glyph, column: Int, end: Int, rowBase: Int, style: CellStyle, fresh: inout Bool) -> Int? {
        guard column + glyph.width <= end else { return nil }
        if column < 0 && column + glyph.width > 0 {
            // Only the right half of a wide glyph is visible: show a blank there.
            place(.blank, column: column + 1, rowBase: rowBase, style: style, fresh: &fresh)
            return column + glyph.width
        }
        place(glyph, column: column, rowBase: rowBase, style: style, fresh: &fresh)
        return column + glyph.width
    }

    /// Ends a write that stopped at `column`: when its last glyph overwrote the left half of
    /// a wide glyph, that glyph's right half is orphaned and blanked.
    private mutating func endWrite(at column: Int, rowBase: Int, fresh: Bool) {
        if !fresh && column < width && cells[rowBase + column].isContinuation {
            cells[rowBase + column].setPrintableASCII(0x20)
        }
    }

    /// Puts one glyph (and its continuation cell when wide) at `column` of a row. The first
    /// visible glyph of a write also repairs a wide glyph whose right half it overwrites.
    @inline(__always)
    private mutating func place(_ glyph: Glyph, column: Int, rowBase: Int, style: CellStyle, fresh: inout Bool) {
        guard column >= 0 else { return }
        let i = rowBase + column
        if fresh {
            fresh = false
            if column > 0 && cells[i].isContinuation { cells[i - 1].setPrintableASCII(0x20) }
        }
        cells[i].setGlyph(glyph.symbol, asciiByte: glyph.asciiByte, columns: glyph.width)
        cells[i].style = cells[i].style.patched(with: style)
        if glyph.width == 2 {
            cells[i + 1].setContinuation()
            cells[i + 1].style = cells[i + 1].style.patched(with: style)
        }
    }

    /// Sets every cell of `rect` (clipped to the buffer) to `symbol` in `style`, replacing the
    /// previous style. A wide symbol is laid in pairs, with a blank in an odd last column; a
    /// zero-width or control symbol fills with blanks. Wide glyphs cut by the rectangle's
    /// edges are blanked on the outside, so the grid stays consistent.
    public mutating func fill(_ rect: Rect, symbol: Character = " ", style: CellStyle) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        var glyphWidth = DisplayWidth.of(symbol)
        var text = String(symbol)
        if glyphWidth == 0 || symbol.unicodeScalars.contains(where: { DisplayWidth.isControl($0.value) }) {
            glyphWidth = 1
            text = " "
        }
        let filler = Cell(symbol: text, style: style)
        let padding = Cell(symbol: " ", style: style)
        let continuation = Cell.continuation(style: style)
        for row in r.y..<r.maxY {
            let base = row * width
            if r.x > 0 && cells[base + r.x].isContinuation { cells[base + r.x - 1].setPrintableASCII(0x20) }
            var col = r.x
            while col < r.maxX {
                if glyphWidth == 2 {
                    if col + 1 < r.maxX {
                        cells[base + col] = filler
                        cells[base + col + 1] = continuation
                        col += 2
                    } else {
                        cells[base + col] = padding
                        col += 1
                    }
                } else {
                    cells[base + col] = filler
                    col += 1
                }
            }
            if r.maxX < width && cells[base + r.maxX].isContinuation { cells[base + r.maxX].setPrintableASCII(0x20) }
        }
    }

    /// Patches `style` onto every cell of `rect` (clipped to the buffer), keeping symbols:
    /// e.g. a panel background, or `reverse` to show focus. A wide glyph takes its look from
    /// its left cell, so a rectangle that covers only its right half does not restyle it.
    public mutating func applyStyle(_ style: CellStyle, to rect: Rect) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY {
            let base = row * width
            for i in (base + r.x)..<(base + r.maxX) {
                cells[i].style = cells[i].style.patched(with: style)
            }
        }
    }

    /// The buffer as text: one String per row, continuation cells skipped, trailing spaces
    /// trimmed. This is the `--plain` output.
    public func plainLines() -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(height)
        var bytes: [UInt8] = []
        for row in 0..<height {
            bytes.removeAll(keepingCapacity: true)
            let base = row * width
            for i in base..<(base + width) where !cells[i].isContinuation {
                cells[i].appendSymbol(to: &bytes)
            }
            while bytes.last == 0x20 { bytes.removeLast() }
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        return lines
    }
}

