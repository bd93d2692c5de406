import HybridCells
import HybridDocument
import HybridLayout

/// A node resolved against state: bindings evaluated, lists and components expanded, ready to
/// be laid out and drawn. Rebuilt for each frame; nothing here outlives a frame but the
/// measurements cached for it.
public final class View: LayoutItem {
    /// What the view draws.
    public enum Content {
        /// Draws only background and border (column, row, stack, scroll, box, list).
        case container(title: String?)
        /// Styled runs of text.
        case text([TextRun])
        case button(label: String)
        case input(text: String, placeholder: String, secure: Bool)
        case checkbox(label: String, checked: Bool)
        case select(options: [String], selected: Int?)
        case table(columns: [TableColumn], rows: [[String]])
        case tabs(titles: [String], selected: Int)
        case progress(value: Double, label: String?)
        case spinner(label: String?)
        case divider(vertical: Bool)
        case spacer
        /// A node that could not be decoded or resolved.
        case error(message: String)
    }

    /// Identifies the view across frames: the node's place in the document, plus the list item
    /// or component instance it belongs to.
    public let key: String
    /// The node the view came from (its actions, its bindings).
    public let node: Node
    /// The variables the node was resolved with, to evaluate its actions and find the state
    /// paths its bindings read.
    public let scope: StateScope
    /// The node's `id`.
    public let id: String?
    /// The node type as documents name it.
    public let typeName: String
    /// Byte offset of the node in its document.
    public let sourceOffset: Int
    /// What to draw.
    public var content: Content
    /// Views inside this one.
    public var children: [View]
    /// Sizing and placement.
    public var layoutStyle: LayoutStyle
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

    public var frame: Rect = .zero {
        didSet { placement = (frame, scrollOffset) }
    }
    public var contentHeight = 0
    public var scrollOffset = 0
    public var layoutChildren: [any LayoutItem] { children }

    /// Whether the view comes from a node that depends on nothing, so it is kept from frame to
    /// frame with its measurements and placement.
    var isStatic = false
    private var placement: (frame: Rect, scrollOffset: Int)?
    private var measured: (maxWidth: Int, size: Size)?
    private var wrapped: (width: Int, lines: [TextLine])?

    public func keepsPlacement(in frame: Rect) -> Bool {
        guard isStatic, let placement else { return false }
        return placement.frame == frame && placement.scrollOffset == scrollOffset
    }

    /// The text content broken into lines for `width` columns (kept for the last width asked).
    func lines(width: Int) -> [TextLine] {
        if let wrapped, wrapped.width == width { return wrapped.lines }
        guard case .text(let runs) = content else { return [] }
        let lines = TextLayout.lines(runs, width: width, wrap: wrap)
        wrapped = (width, lines)
        return lines
    }

    /// Whether the user can focus it (Tab moves through these in document order).
    public var isFocusable: Bool {
        switch node.kind {
        case .button, .input, .checkbox, .select, .tabs: return true
        case .list(_, _, let onSelect): return onSelect != nil && !children.isEmpty
        case .table(_, _, let onSelect): return onSelect != nil || layoutStyle.height != nil
        // A scroll view takes focus only to scroll text; with focusable content, focusing that
        // content scrolls it into view instead.
        case .scroll: return contentHeight > frame.height && !children.contains(where: \.containsFocusable)
        default: return false
        }
    }
    /// Whether the view or something inside it can take focus.
    var containsFocusable: Bool { isFocusable || children.contains(where: \.containsFocusable) }

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

    init(key: String, node: Node, scope: StateScope, id: String?, typeName: String, sourceOffset: Int, content: Content, children: [View] = [],
         layoutStyle: LayoutStyle, cellStyle: CellStyle, paintsBackground: Bool = false,
         border: BorderKind = .none, borderStyle: CellStyle = .plain, wrap: WrapMode = .word, textAlign: TextAlignment = .left) {
        self.key = key
        self.node = node
        self.scope = scope
        self.id = id
        self.typeName = typeName
        self.sourceOffset = sourceOffset
        self.content = content
        self.children = children
        self.layoutStyle = layoutStyle
        self.cellStyle = cellStyle
        self.paintsBackground = paintsBackground
        self.border = border
        self.borderStyle = borderStyle
        self.wrap = wrap
        self.textAlign = textAlign
    }

    /// Worked out once: the engine asks for it several times per frame.
    public private(set) lazy var fixedContentHeight: Int? = WidgetMetrics.fixedHeight(of: self)

    public func contentSize(maxWidth: Int) -> Size {
        if let measured, measured.maxWidth == maxWidth { return measured.size }
        let size = WidgetMetrics.contentSize(of: self, maxWidth: maxWidth)
        measured = (maxWidth, size)
        return size
    }
}

/// A run of text with one style, inside a text view.
public struct TextRun: Sendable {
    /// The text.
    public var text: String
    /// Its style (already patched over the text view's style).
    public var style: CellStyle
}
