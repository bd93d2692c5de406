import HybridDocument
import HybridJSON

/// One node of a screen's view tree, decoded from the document: the fields every node has,
/// and its widget (the node type with its own props).
public struct Node: Sendable {
    /// The `id`, used by scripts (`ui.update`) and focus.
    public var id: String?
    /// What the node is, with its props.
    var widget: any Widget
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
    /// Whether the node and everything under it depend on nothing (no state, props or list
    /// items, no focus), so its views are kept from frame to frame.
    public private(set) var isStatic: Bool

    init(widget: any Widget, offset: Int) {
        self.widget = widget
        self.style = NodeStyle()
        self.boundStyle = []
        self.autofocus = false
        self.offset = offset
        self.isStatic = false
    }

    /// A node standing for one that could not be decoded, drawn as a visible error marker.
    static func invalid(_ message: String, offset: Int) -> Node {
        var node = Node(widget: InvalidNode(message: message), offset: offset)
        node.isStatic = true
        return node
    }

    /// The node type's name as documents write it.
    public var typeName: String { type(of: widget).typeName }

    /// The child nodes drawn inside this one (not list templates, tab bodies or components).
    public var children: [Node] { widget.childNodes.nodes }
    /// The child nodes, possibly not decoded yet.
    var childNodes: NodeList { widget.childNodes }

    /// Works out `isStatic` once the node is complete.
    mutating func settle() {
        isStatic = boundStyle.isEmpty && (visible?.isConstant ?? true) && widget.isStatic
    }
}
