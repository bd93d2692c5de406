import HybridCells

/// Whole rows of two frames compared: the one the terminal shows (`previous`, empty when
/// there is none) and the next (row-major cells, `width` columns). The encoder asks which rows
/// changed; `LineShift` asks which rows moved.
struct FrameRows {
    let previous: UnsafeBufferPointer<Cell>
    let next: UnsafeBufferPointer<Cell>
    let width: Int
    /// `Cell.blank`, held locally: a static is a lazily initialised global.
    let blank = Cell.blank

    /// Whether row `y` of the next frame equals row `from` of the previous one.
    func equal(next y: Int, previous from: Int) -> Bool {
        let a = y * width, b = from * width
        for x in 0..<width where next[a + x] != previous[b + x] { return false }
        return true
    }

    /// Equal but for at most a tenth of the row's cells (at least two).
    func nearlyEqual(next y: Int, previous from: Int) -> Bool {
        let a = y * width, b = from * width
        var allowed = Swift.max(2, width / 10)
        for x in 0..<width where next[a + x] != previous[b + x] {
            allowed -= 1
            if allowed < 0 { return false }
        }
        return true
    }

    /// Whether row `y` of the next frame is all plain blanks.
    func nextIsBlank(_ y: Int) -> Bool {
        for x in (y * width)..<((y + 1) * width) where next[x] != blank { return false }
        return true
    }
}
