/// An axis-aligned rectangle of terminal cells.
///
/// `x`/`y` are the top-left column and row; `width`/`height` count cells. A rectangle with a
/// non-positive width or height is empty. Coordinates may be negative (e.g. a child scrolled
/// partly out of its viewport); clipping against a buffer happens where cells are touched.
public struct Rect: Hashable, Sendable {
    /// Left column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Number of columns.
    public var width: Int
    /// Number of rows.
    public var height: Int

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// True when the rectangle covers no cell.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// One past the rightmost column (`x + width`), saturating rather than trapping: sizes
    /// come from documents, and a rectangle reaching past `Int.max` covers nothing visible.
    public var maxX: Int { Self.sum(x, width) }

    /// One past the bottom row (`y + height`), saturating.
    public var maxY: Int { Self.sum(y, height) }

    /// Number of cells covered (0 when empty), saturating.
    public var area: Int {
        guard !isEmpty else { return 0 }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    /// True when the cell at (`x`, `y`) lies inside the rectangle.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    /// The overlap of two rectangles. When they do not overlap the result is empty (width or
    /// height 0) but keeps a sensible origin, so callers can still position against it.
    public func intersection(_ other: Rect) -> Rect {
        let nx = Swift.max(x, other.x)
        let ny = Swift.max(y, other.y)
        let w = Self.difference(Swift.min(maxX, other.maxX), nx)
        let h = Self.difference(Swift.min(maxY, other.maxY), ny)
        return Rect(x: nx, y: ny, width: Swift.max(0, w), height: Swift.max(0, h))
    }

    /// The rectangle shrunk by the given margins. Width and height never go below 0, so
    /// padding larger than the rectangle yields an empty rectangle rather than a negative one.
    public func inset(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0) -> Rect {
        Rect(
            x: Self.sum(x, left),
            y: Self.sum(y, top),
            width: Swift.max(0, Self.difference(Self.difference(width, left), right)),
            height: Swift.max(0, Self.difference(Self.difference(height, top), bottom))
        )
    }

    /// `a + b`, held at `Int.min` or `Int.max` instead of trapping.
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// `a - b`, held at `Int.min` or `Int.max` instead of trapping.
    private static func difference(_ a: Int, _ b: Int) -> Int {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : difference
    }

    /// The rectangle shrunk by the same margin on every side.
    public func inset(by amount: Int) -> Rect {
        inset(top: amount, right: amount, bottom: amount, left: amount)
    }
}
