import HybridJSON

/// One node of a screen's view tree, decoded from the document.
public struct Node: Sendable {
    /// The `id`, used by scripts (`ui.update`) and focus.
    public var id: String?
    /// What the node is, with its props.
    public var kind: Kind
    /// The style fields written as literals.
    public var style: NodeStyle
    /// Style fields bound to expressions, evaluated at render time.
    public var boundStyle: [(field: String, value: PropertyValue)]
    /// `visible`; `nil` means always.
    public var visible: PropertyValue?
    /// Whether this node takes focus when the screen opens.
    public var autofocus: Bool
    /// Byte offset of the node's `{` in the document, for locating runtime errors.
    public var offset: Int

    /// Whether the node or anything under it depends on state, props or list items.
    public var isStatic: Bool

    /// A node type with its props.
    public indirect enum Kind: Sendable {
        case column([Node])
        case row([Node])
        case stack([Node])
        case scroll([Node])
        case box(title: PropertyValue?, children: [Node])
        case text(text: PropertyValue?, spans: [Span])
        case button(label: PropertyValue, onPress: Action?)
        case input(value: PropertyValue?, placeholder: PropertyValue?, secure: PropertyValue?, onChange: Action?, onSubmit: Action?)
        case checkbox(label: PropertyValue?, checked: PropertyValue?, onChange: Action?)
        case select(options: PropertyValue, selected: PropertyValue?, onChange: Action?)
        case list(items: PropertyValue, template: Node, onSelect: Action?)
        case table(columns: [TableColumn], rows: PropertyValue?, onSelect: Action?)
        case tabs(tabs: [Tab], selected: PropertyValue?)
        case progress(value: PropertyValue, label: PropertyValue?)
        case spinner(label: PropertyValue?)
        case divider
        case spacer
        case component(name: String, props: PropertyValue?)
        /// A node that failed to decode; drawn as a visible error marker.
        case invalid(message: String)
    }

    /// The node type's name as documents write it.
    public var typeName: String {
        switch kind {
        case .column: "column"
        case .row: "row"
        case .stack: "stack"
        case .scroll: "scroll"
        case .box: "box"
        case .text: "text"
        case .button: "button"
        case .input: "input"
        case .checkbox: "checkbox"
        case .select: "select"
        case .list: "list"
        case .table: "table"
        case .tabs: "tabs"
        case .progress: "progress"
        case .spinner: "spinner"
        case .divider: "divider"
        case .spacer: "spacer"
        case .component: "component"
        case .invalid: "invalid"
        }
    }

    /// The child nodes drawn inside this one (not list templates, tab bodies or components).
    public var children: [Node] {
        switch kind {
        case .column(let children), .row(let children), .stack(let children), .scroll(let children),
             .box(_, let children):
            return children
        default:
            return []
        }
    }
}

/// A run of text with its own style inside a `text` node.
public struct Span: Sendable {
    /// The text, possibly bound.
    public var text: PropertyValue
    /// The span's colours and attributes.
    public var style: TextStyle
}

/// A column of a `table`.
public struct TableColumn: Sendable {
    /// The header.
    public var title: String
    /// The width; `nil` sizes the column to its content.
    public var width: Dimension?
    /// Alignment of the cells.
    public var align: TextAlignment
}

/// One tab of a `tabs` node.
public struct Tab: Sendable {
    /// The tab's label, possibly bound.
    public var title: PropertyValue
    /// What the tab shows when selected.
    public var body: Node
}
