import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// A node type of SPEC §2, whole in one place: its props and how they are decoded, how a
/// node of it resolves into a view, and how it answers keys, pastes and clicks. How its view
/// measures and paints is its `ViewContent`, usually a nested `Content` type in the same file.
///
/// Adding a node type is one file holding a `Widget` and one line in `WidgetCatalog`.
protocol Widget: Sendable {
    /// The `type` documents write.
    static var typeName: String { get }
    /// The props of this type, besides the fields every node has.
    static var fields: [String] { get }
    /// Reads the props of `json`, reporting every problem through `decoder`; `nil` when the
    /// node cannot be drawn at all (a required prop is missing or unusable).
    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Self?

    /// The nodes drawn inside this one (not list templates, tab bodies or components).
    var childNodes: NodeList { get }
    /// Whether a node of this type is static whenever nothing in it is bound, so a large
    /// subtree of such nodes may be decoded when first drawn (`ColdSubtree`).
    static var isStaticWhenUnbound: Bool { get }
    /// Whether the props and children depend on nothing, so the node resolves the same on
    /// every frame. Widgets that show focus or selection are never static.
    var isStatic: Bool { get }
    /// The view for `node`, or `nil` when it shows nothing. `place` says where the node is
    /// (scope, styles, parent) and makes views; `resolver` evaluates props and children.
    func resolve(_ place: Place, with resolver: inout Resolver) -> View?

    /// Whether `view` takes focus (Tab moves through focusable views in document order).
    func isFocusable(_ view: View) -> Bool
    /// Sets up what a newly focused view shows (an input's caret, a list's selection).
    func focus(_ view: View, interaction: inout Interaction)
    /// Handles a key while `view` has focus; false when the key is not for it, so the screen's
    /// `keys` get it.
    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool
    /// The keys `handleKey` answers for `view` now, each with what it does (the action's
    /// `help` when it has one), for `keyhelp`.
    func keyHelp(for view: View) -> [KeyHint]
    /// Takes pasted text; false when the widget takes no text.
    func paste(_ text: String, into view: View, host: any WidgetHost) -> Bool
    /// Answers a click at a cell of `view`, which has just been focused by it.
    func click(x: Int, y: Int, on view: View, host: any WidgetHost)
    /// The view that must be scrolled into sight while `view` has focus.
    func revealedView(of view: View) -> View
}

extension Widget {
    var childNodes: NodeList { NodeList([]) }
    static var isStaticWhenUnbound: Bool { false }
    var isStatic: Bool { false }
    func isFocusable(_ view: View) -> Bool { false }
    func focus(_ view: View, interaction: inout Interaction) {}
    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool { false }
    func keyHelp(for view: View) -> [KeyHint] { [] }
    func paste(_ text: String, into view: View, host: any WidgetHost) -> Bool { false }
    func click(x: Int, y: Int, on view: View, host: any WidgetHost) {}
    func revealedView(of view: View) -> View { view }
}

/// Whether every value given is absent or has no binding.
func areConstant(_ values: PropertyValue?...) -> Bool {
    values.allSatisfy { $0?.isConstant ?? true }
}
