/// The words a style uses for sizes and placement; the layout engine's own vocabulary, which
/// documents borrow.

/// A size along one axis, as a style writes it.
public enum Dimension: Sendable, Equatable {
    /// The most cells a size, an edge or a gap may take: any larger number a document gives
    /// is taken as this many. Far more than a terminal shows, and small enough that sums of
    /// sizes over a whole screen never overflow.
    public static let maximumCells = 100_000

    /// A fixed number of cells.
    case cells(Int)
    /// A share of the parent's inner size, 0…100.
    case percent(Double)
    /// As large as the content.
    case auto
    /// All the room left over (like `flex: 1`).
    case fill
}

/// Four edge widths: padding, margin.
public struct Edges: Sendable, Equatable {
    public var top, right, bottom, left: Int

    /// Edges with each side given.
    public init(top: Int, right: Int, bottom: Int, left: Int) {
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
    }

    /// No space on any side.
    public static let zero = Edges(top: 0, right: 0, bottom: 0, left: 0)

    /// Left plus right.
    public var horizontal: Int { left + right }
    /// Top plus bottom.
    public var vertical: Int { top + bottom }
}

/// Cross-axis placement of children (`align`).
public enum Alignment: String, Sendable, CaseIterable {
    case start, center, end, stretch
}

/// Main-axis distribution of children (`justify`).
public enum Justification: String, Sendable, CaseIterable {
    case start, center, end, spaceBetween = "space-between", spaceAround = "space-around"
}
