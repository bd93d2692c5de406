/// A grid of cells: what a screen should look like.
///
/// Widgets draw into a buffer; the terminal backend diffs two buffers into bytes. Cells are
/// stored row-major in one contiguous array (`cells[y * width + x]`) so comparing and walking
/// frames touches memory linearly and never allocates per cell.
///
/// Invariant kept by every drawing method (`write`, `fill`): a wide glyph is followed by its
/// continuation cell, and overwriting either half of a wide glyph blanks the other half, like
/// a terminal does. The raw `subscript` setter does not enforce this; the frame encoder copes
/// with inconsistent cells anyway (see `FrameEncoder`).
public struct Buffer: Sendable, Equatable {
    /// Number of columns.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// All cells, row-major.
    public internal(set) var cells: [Cell]

    /// Creates a buffer of plain blank cells. Negative sizes are treated as 0.
    public init(width: Int, height: Int) {
        self.width = Swift.max(0, width)
        self.height = Swift.max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The whole buffer as a rectangle at the origin.
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// True when (`x`, `y`) is inside the buffer.
    @inline(__always)
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// The cell at (`x`, `y`). Reading outside the buffer yields a blank cell and writing
    /// there is ignored, so drawing code can clip lazily without ever crashing the app.
    public subscript(x: Int, y: Int) -> Cell {
        get {
            guard contains(x: x, y: y) else { return .blank }
            return cells[y * width + x]
        }
        set {
            guard contains(x: x, y: y) else { return }
            cells[y * width + x] = newValue
        }
    }

    /// Resets every cell to a plain blank.
    public mutating func clear() {
        for i in cells.indices { cells[i] = .blank }
    }
}
