/// A width and a height in cells.
public struct Size: Hashable, Sendable {
    public var width: Int
    public var height: Int

    /// A size of `width` by `height` cells.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// No cells.
    public static let zero = Size(width: 0, height: 0)
}

/// How a container places its children.
public enum Arrangement: Sendable {
    /// Top to bottom (`column`, `box`, `list`).
    case vertical
    /// Left to right (`row`).
    case horizontal
    /// On top of each other (`stack`).
    case overlay
    /// Top to bottom over unbounded height, shown through a viewport (`scroll`).
    case scrolling
    /// No children; the item measures its own content.
    case leaf
}

/// The style fields that decide where an item goes and how large it is.
public struct LayoutStyle: Sendable {
    public var arrangement: Arrangement = .leaf
    public var width: Dimension?
    public var height: Dimension?
    public var minWidth: Dimension?
    public var maxWidth: Dimension?
    public var minHeight: Dimension?
    public var maxHeight: Dimension?
    public var flex: Double?
    public var padding: Edges = .zero
    public var margin: Edges = .zero
    /// Cells taken by a border on each side (0 or 1).
    public var border: Edges = .zero
    public var gap: Int = 0
    public var align: Alignment = .stretch
    public var justify: Justification = .start

    /// A leaf with no sizing fields.
    public init() {}

    /// Border plus padding.
    public var insets: Edges {
        Edges(top: padding.top + border.top, right: padding.right + border.right,
              bottom: padding.bottom + border.bottom, left: padding.left + border.left)
    }

    /// The weight with which the item grows along its parent's main axis, if it grows.
    func growth(along axis: Arrangement) -> Double? {
        if let flex, flex > 0 { return flex }
        let size = axis == .horizontal ? width : height
        return size == .fill ? 1 : nil
    }
}

extension LayoutStyle {
    /// Whether the height is worked out from the parent's: growing, or a percentage.
    var followsParentHeight: Bool {
        growth(along: .vertical) != nil || height.isPercent || minHeight.isPercent || maxHeight.isPercent
    }
}

extension Optional where Wrapped == Dimension {
    var isPercent: Bool {
        if case .percent? = self { return true }
        return false
    }
}
