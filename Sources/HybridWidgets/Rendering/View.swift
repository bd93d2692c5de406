import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// A node resolved against state: bindings evaluated, lists and components expanded, ready to
/// be laid out and drawn. Rebuilt for each frame; nothing here outlives a frame but the
/// measurements cached for it.
public final class View: LayoutItem {
    /// Identifies the view across frames: the node's place in the document, plus the list item
    /// or component instance it belongs to.
    public let key: String
    /// The node the view came from (its actions, its bindings).
    public let node: Node
    /// The variables the node was resolved with, to evaluate its actions and find the state
    /// paths its bindings read.
    public let scope: StateScope
    /// What the view shows, measured and painted by its widget.
    let content: any ViewContent
    // A view is built, laid out and painted on the thread drawing its frame, so the properties
    // layout reads for every view on every frame skip the runtime's exclusivity check, which
    // cost a tenth of a one-line scroll (BENCHMARKS.md).

    /// Views inside this one. A static view's are resolved when first asked for (see
    /// `ViewChildren`): laid out in sight, painted, or walked.
    public var children: [View] {
        if let later = laterChildren {
            laterChildren = nil
            resolvedChildren = later.all
        }
        return resolvedChildren
    }
    @exclusivity(unchecked) private var resolvedChildren: [View] = []
    @exclusivity(unchecked) private var laterChildren: LaterViews?
    /// The children resolved so far: all that the layout placed, so all that can show.
    var childrenSoFar: [View] { laterChildren?.views ?? resolvedChildren }
    /// The child at `index`, resolving the children before it first if they wait (nil past
    /// the last): a column laid out down to the bottom of the screen resolves what shows.
    func child(at index: Int) -> View? {
        if let later = laterChildren { return later.view(at: index) }
        return index < resolvedChildren.count ? resolvedChildren[index] : nil
    }
    /// The children that may hold something focusable, focused or animated: none under a
    /// static view, whose children are then not resolved just to be looked through.
    public var interactiveChildren: [View] { isStatic ? [] : children }
    /// Sizing and placement.
    @exclusivity(unchecked) public var layoutStyle: LayoutStyle
    /// Colours and attributes, inherited from ancestors and patched with the node's own.
    public var cellStyle: CellStyle
    /// Whether the node set its own background (so its whole frame is painted).
    public var paintsBackground: Bool
    /// The border, drawn inside the frame.
    public var border: BorderKind
    /// Colours of the border.
    public var borderStyle: CellStyle
    /// How text breaks into lines.
    public var wrap: WrapMode
    /// How text lines are aligned.
    public var textAlign: TextAlignment

    @exclusivity(unchecked) public var frame: Rect = .zero
    @exclusivity(unchecked) public var contentHeight = 0
    @exclusivity(unchecked) public var scrollOffset = 0
    public var layoutChildren: [any LayoutItem] { children }
    public func layoutChild(at index: Int, resolving: Bool) -> (any LayoutItem)? {
        resolving || index < childrenSoFar.count ? child(at: index) : nil
    }

    /// Whether it has focus now.
    public var isFocused = false
    /// The part of the frame the last paint showed (the frame clipped by every parent), for
    /// telling what a click hit; empty when scrolled out of sight or not drawn.
    public internal(set) var visibleFrame: Rect = .zero
    /// The highlighted row of a list or table.
    public var selected: Int?
    /// Where the caret is in a focused input, in characters.
    public var caret: Int?
    /// Which frame a spinner shows.
    public var tick = 0

    /// Whether the view comes from a node that depends on nothing, so it is kept from frame to
    /// frame with its measurements and placement. Nothing in it takes focus or animates.
    public internal(set) var isStatic = false
    @exclusivity(unchecked) private var placement: (frame: Rect, scrollOffset: Int, sight: Rect)?
    @exclusivity(unchecked) private var measured: (maxWidth: Int, size: Size)?

    init(key: String, node: Node, scope: StateScope, content: any ViewContent, children: ViewChildren,
         layoutStyle: LayoutStyle, cellStyle: CellStyle, paintsBackground: Bool,
         border: BorderKind, borderStyle: CellStyle, wrap: WrapMode, textAlign: TextAlignment) {
        self.key = key
        self.node = node
        self.scope = scope
        self.content = content
        switch children {
        case .now(let views): resolvedChildren = views
        case .later(let views): laterChildren = views
        }
        self.layoutStyle = layoutStyle
        self.cellStyle = cellStyle
        self.paintsBackground = paintsBackground
        self.border = border
        self.borderStyle = borderStyle
        self.wrap = wrap
        self.textAlign = textAlign
    }

    /// The node's `id`.
    public var id: String? { node.id }
    /// The node type as documents name it.
    public var typeName: String { node.typeName }
    /// Byte offset of the node in its document.
    public var sourceOffset: Int { node.offset }

    // MARK: Layout

    public func keepsPlacement(in frame: Rect, sight: Rect) -> Bool {
        if isStatic, let placement, placement.frame == frame, placement.scrollOffset == scrollOffset, placement.sight == sight {
            return true
        }
        // Placed now, for this frame and sight.
        placement = (frame, scrollOffset, sight)
        return false
    }

    /// Only a static view leaves its children unplaced out of sight: the engine fills in the
    /// content height of scroll views, which decides whether they take focus.
    public var placesChildrenOutOfSight: Bool { !isStatic }

    /// Worked out once: the engine asks for it several times per frame.
    public private(set) lazy var fixedContentHeight: Int? = content.fixedHeight(of: self)

    public func contentSize(maxWidth: Int) -> Size {
        if let measured, measured.maxWidth == maxWidth { return measured.size }
        let size = content.size(of: self, maxWidth: maxWidth)
        measured = (maxWidth, size)
        return size
    }

    // MARK: Behaviour, by the node's widget

    /// Whether the user can focus it (Tab moves through these in document order).
    public var isFocusable: Bool { node.widget.isFocusable(self) }
    /// Whether the view or something inside it can take focus.
    var containsFocusable: Bool { isFocusable || interactiveChildren.contains(where: \.containsFocusable) }
    /// Whether frames must keep coming while it shows (a spinner turns).
    public var animates: Bool { content.animates }
    /// The view to scroll into sight while this one has focus (a list's selected item).
    public var revealedView: View { node.widget.revealedView(of: self) }

    /// Sets up what the view shows as it takes focus (an input's caret, a list's selection).
    public func prepareFocus(_ interaction: inout Interaction) {
        node.widget.focus(self, interaction: &interaction)
    }

    /// Handles a key while the view has focus; false when the key is not for it.
    public func handleKey(_ key: String, host: any WidgetHost) -> Bool {
        node.widget.handleKey(key, on: self, host: host)
    }

    /// Takes pasted text; false when the view takes no text.
    public func paste(_ text: String, host: any WidgetHost) -> Bool {
        node.widget.paste(text, into: self, host: host)
    }

    /// Answers a click at a cell of the view (already focused by it).
    public func click(x: Int, y: Int, host: any WidgetHost) {
        node.widget.click(x: x, y: y, on: self, host: host)
    }

    // MARK: Events and bindings

    /// The event a script handler or action of this view is given: `{type, id?, value?, …}`.
    public func event(value: JSONValue? = nil, extra: [(String, JSONValue)] = []) -> JSONValue {
        var event = JSONObject([("type", .string(typeName))])
        if let id { event["id"] = .string(id) }
        if let value { event["value"] = value }
        for (key, value) in extra { event[key] = value }
        return .object(event)
    }

    /// The state path a two-way binding of this view writes, or `nil` when `property` is not
    /// bound to the state.
    public func statePath(of property: PropertyValue?) -> String? {
        property?.bindingName.flatMap(scope.statePath(of:))
    }
}

/// The children a view is made with: resolved with it, or resolved when first asked for.
/// The resolver defers the children of static nodes outside lists and components, which
/// resolve the same whenever they are resolved; what is never laid out in sight, painted or
/// walked then costs nothing, and a cold subtree (`NodeList`) is not even decoded.
enum ViewChildren: ExpressibleByArrayLiteral {
    case now([View])
    case later(LaterViews)

    init(arrayLiteral views: View...) {
        self = .now(views)
    }
}

/// Children resolved when asked for, node by node as far as they are asked for: the views
/// of the first nodes of `nodes`, made by `resolve` in batches.
final class LaterViews {
    private let nodes: NodeList
    private let resolve: ([Node]) -> [View]
    /// The next node to resolve.
    private var nextNode = 0
    /// The views of the nodes resolved so far (invisible nodes have none).
    private(set) var views: [View] = []
    private var isComplete = false

    init(_ nodes: NodeList, resolve: @escaping ([Node]) -> [View]) {
        self.nodes = nodes
        self.resolve = resolve
    }

    /// The view at `index`, or nil past the last.
    func view(at index: Int) -> View? {
        while views.count <= index, !isComplete {
            resolveNodes(count: index + 1 - views.count)
        }
        return index < views.count ? views[index] : nil
    }

    /// All the views.
    var all: [View] {
        if !isComplete {
            let rest = nodes.nodes.dropFirst(nextNode)
            nextNode += rest.count
            isComplete = true
            views += resolve(Array(rest))
        }
        return views
    }

    private func resolveNodes(count: Int) {
        var batch: [Node] = []
        while batch.count < count {
            guard let node = nodes.node(at: nextNode) else {
                isComplete = true
                break
            }
            batch.append(node)
            nextNode += 1
        }
        views += resolve(batch)
    }
}

/// A run of text with one style, inside a text view.
public struct TextRun: Sendable {
    /// The text.
    public var text: String
    /// Its style (already patched over the text view's style).
    public var style: CellStyle
}
