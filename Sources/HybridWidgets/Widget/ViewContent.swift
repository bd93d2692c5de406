import HybridCells
import HybridLayout

/// What a resolved view shows, measured and painted by the widget that made it: a button's
/// label, a table's rows. Containers show nothing of their own (`Container`).
protocol ViewContent {
    /// The natural size of the content when at most `maxWidth` columns are available.
    func size(of view: View, maxWidth: Int) -> Size
    /// The content height when it is the same at every width (see `LayoutItem`).
    func fixedHeight(of view: View) -> Int?
    /// Paints the content inside the view's border and padding, before its children.
    func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer)
    /// Paints over the children (a list's highlighted item).
    func paintOver(_ view: View, in area: PaintArea, into buffer: inout Buffer)
    /// Whether frames must keep coming while it shows (a spinner turns).
    var animates: Bool { get }
}

extension ViewContent {
    func size(of view: View, maxWidth: Int) -> Size { .zero }
    func fixedHeight(of view: View) -> Int? { nil }
    func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {}
    func paintOver(_ view: View, in area: PaintArea, into buffer: inout Buffer) {}
    var animates: Bool { false }
}

/// Where a view's content is painted: inside its border and padding, clipped.
struct PaintArea {
    /// The frame less border and padding.
    let inner: Rect
    /// `inner` clipped by every parent: where content may draw.
    let clip: Rect
    /// The whole frame clipped by every parent: where a widget may draw over its own border
    /// (a box's title, the tab bar).
    let visible: Rect
}

/// A view that draws nothing itself: only its background, border and children (column,
/// row, stack, scroll, list, component wrappers).
struct Container: ViewContent {}
