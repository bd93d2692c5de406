import HybridCells

/// Something the layout engine can size and place: a container or a leaf widget.
///
/// The engine only reads styles, asks leaves for their content size and writes frames, so
/// widgets stay free of geometry code and the engine of drawing code (as in ratatui).
public protocol LayoutItem: AnyObject {
    /// How the item is sized and how it places its children.
    var layoutStyle: LayoutStyle { get }
    /// The items inside, in order (empty for leaves).
    var layoutChildren: [any LayoutItem] { get }
    /// The item at `index` in `layoutChildren`, or nil past the last. Items that make their
    /// children when asked for make those up to `index` when `resolving`, else answer nil for
    /// a child not made yet: the engine asks that way for children below the sight, so a long
    /// column makes what shows.
    func layoutChild(at index: Int, resolving: Bool) -> (any LayoutItem)?
    /// The size of a leaf's content when at most `maxWidth` columns are available (text wraps
    /// to it). Containers are measured by the engine and may return `.zero`.
    func contentSize(maxWidth: Int) -> Size
    /// The height of a leaf's content when it is the same at every width (a line of unwrapped
    /// text), or `nil` when it depends on the width. Lets the engine find heights, which is
    /// all a stretched child needs, without measuring widths.
    var fixedContentHeight: Int? { get }
    /// Where the item was placed, outside its margin (set by the engine).
    var frame: Rect { get set }
    /// For scrolling containers: the height of all content, set by the engine.
    var contentHeight: Int { get set }
    /// For scrolling containers: how many rows the content is scrolled up.
    var scrollOffset: Int { get }
    /// Whether the item and everything under it are already placed for `frame`, with `sight`
    /// the part of the screen its parents show (an unchanged subtree from an earlier frame),
    /// so the engine can skip it. On false the engine places the item for them at once, so an
    /// item may note them here as its placement.
    func keepsPlacement(in frame: Rect, sight: Rect) -> Bool
    /// Whether the children must be placed while the item is out of sight, because something
    /// reads their placement unseen (a scroll view's content height decides whether it takes
    /// focus). Items that say no have their children placed once they come into sight.
    var placesChildrenOutOfSight: Bool { get }
}

extension LayoutItem {
    /// Items are placed anew unless they say otherwise.
    public func keepsPlacement(in frame: Rect, sight: Rect) -> Bool { false }

    /// Children are placed wherever the item is unless it says otherwise.
    public var placesChildrenOutOfSight: Bool { true }

    /// Children come from `layoutChildren` unless the item makes them when asked for.
    public func layoutChild(at index: Int, resolving: Bool) -> (any LayoutItem)? {
        let children = layoutChildren
        return index < children.count ? children[index] : nil
    }

    /// Heights are measured at a width unless the item says otherwise.
    public var fixedContentHeight: Int? { nil }
}
