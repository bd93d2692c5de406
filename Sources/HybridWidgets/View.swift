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

    init(id: String?, typeName: String, sourceOffset: Int, content: Content, children: [View] = [],
         layoutStyle: LayoutStyle, cellStyle: CellStyle, paintsBackground: Bool = false,
         border: BorderKind = .none, borderStyle: CellStyle = .plain, wrap: WrapMode = .word, textAlign: TextAlignment = .left) {
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
