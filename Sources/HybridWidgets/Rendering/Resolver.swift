import HybridCells
import HybridDocument
import HybridExpressions
import HybridJSON
import HybridLayout

/// The views of static nodes, by where the node is and what it inherits.
final class StaticViewCache {
    struct Key: Hashable {
        var offset: Int
        var inherited: CellStyle
        var parent: Arrangement
    }

    /// `nil` values record static nodes that are invisible.
    var views: [Key: View?] = [:]
    /// Problems found resolving children when first asked for (see `ViewChildren`): during
    /// a frame's layout and painting, for that frame to report, or after it, for the next.
    var laterProblems: [Diagnostic] = []
    /// Problems of the document found decoding a cold subtree for those children.
    var laterDocumentProblems: [Diagnostic] = []
}

/// Builds the view tree of one frame: evaluates bindings against state, expands lists and
/// components, drops invisible nodes, and records every evaluation error where it happened.
struct Resolver {
    /// The document, the interaction shown and what else the whole frame reads.
    let context: FrameContext
    /// Views of static nodes, kept across frames by the renderer.
    let staticViews: StaticViewCache
    private(set) var problems: [Diagnostic] = []
    /// Problems of the document itself, found decoding a cold subtree (`NodeList`) to resolve it.
    private(set) var documentProblems: [Diagnostic] = []
    private var componentDepth = 0
    /// Deeper component nesting than this is taken for a component that includes itself.
    static let maximumComponentDepth = 32
    /// Views components and list items made so far in this frame (at most
    /// `ScreenRenderer.maximumViews`).
    private var viewCount = 0
    /// How deeply views may nest: a little more than a document alone reaches at the JSON
    /// nesting limit. Components placed inside deep templates could otherwise nest thousands
    /// deep and overflow the stack in resolving, layout and painting, which all recurse.
    static let maximumViewDepth = 300
    /// How many views enclose the one being resolved.
    private var viewDepth = 0
    /// What this frame's expressions have cost so far.
    private var budget = EvaluationBudget()
    /// Whether the views of static nodes go into `staticViews`: not where the views are kept
    /// by the `LaterViews` that asked for them (the cache would hold every line of a long
    /// list a second time, and grow as it is scrolled).
    private var cachesStaticViews = true

    init(context: FrameContext, staticViews: StaticViewCache) {
        self.context = context
        self.staticViews = staticViews
    }

    var document: ScreenDocument { context.document }
    /// The frame's view tree once resolved, for `keyhelp`.
    var focus: FrameFocus { context.focus }

    // MARK: Evaluation

    private mutating func report(_ message: String, at location: ExpressionLocation) {
        problems.append(Diagnostic(offset: location.offset, path: location.path, message: message))
    }

    mutating func report(_ message: String, node: Node, field: String) {
        problems.append(Diagnostic(offset: node.offset, path: "(\(node.typeName)).\(field)", message: message))
    }

    /// Whether `value` may be evaluated within the frame's budget; reports it once when not.
    private mutating func mayEvaluate(_ value: PropertyValue) -> Bool {
        let wasSpent = budget.isSpent
        guard !budget.allows() else { return true }
        if !wasSpent, let location = value.firstLocation { report(EvaluationBudget.message, at: location) }
        return false
    }

    /// The value of a prop, or `nil` (reported) when an expression in it fails.
    mutating func evaluate(_ value: PropertyValue, in scope: StateScope) -> JSONValue? {
        guard value.isConstant || mayEvaluate(value) else { return nil }
        do throws(PropertyValue.Failure) {
            let result = try value.value(in: scope)
            if case .string(let text) = result { budget.spend(text) }
            return result
        } catch {
            report(error.error.message, at: error.location)
            return nil
        }
    }

    mutating func string(_ value: PropertyValue?, in scope: StateScope) -> String? {
        // The common case, taken for every literal span of a long text.
        if let text = value?.literalString { return text }
        switch value {
        case nil:
            return nil
        case .expression(let template, _, let location)?:
            guard mayEvaluate(value!) else { return "" }
            var failures: [ExpressionError] = []
            let text = template.evaluateString(in: scope) { failures.append($0) }
            for failure in failures { report(failure.message, at: location) }
            budget.spend(text)
            return text
        case let value?:
            return evaluate(value, in: scope).map(Self.display)
        }
    }

    /// How a JSON value reads inside text.
    static func display(_ json: JSONValue) -> String {
        switch json {
        case .string(let text): return text
        case .null: return ""
        case .bool, .integer, .number, .array, .object:
            return ExpressionValue(json: json)?.displayString ?? json.jsonText
        }
    }

    mutating func bool(_ value: PropertyValue?, in scope: StateScope, node: Node, field: String) -> Bool? {
        guard let value, let json = evaluate(value, in: scope) else { return nil }
        if case .bool(let flag) = json { return flag }
        report("expected a boolean, got \(DiagnosticText.cut(Self.display(json)))", node: node, field: field)
        return nil
    }

    mutating func number(_ value: PropertyValue, in scope: StateScope, node: Node, field: String) -> Double? {
        switch evaluate(value, in: scope) {
        case .integer(let number)?: return Double(number)
        case .number(let number)?: return number
        case nil: return nil
        case let other?:
            report("expected a number, got \(DiagnosticText.cut(Self.display(other)))", node: node, field: field)
            return nil
        }
    }

    mutating func array(_ value: PropertyValue?, in scope: StateScope, node: Node, field: String) -> [JSONValue]? {
        guard let value, let json = evaluate(value, in: scope) else { return nil }
        if case .array(let items) = json { return items }
        report("expected an array, got \(DiagnosticText.cut(Self.display(json)))", node: node, field: field)
        return nil
    }

    // MARK: Views

    /// A view's key: its `id` when it has one (stable when `ui.update` re-decodes the screen
    /// and every offset moves), else where the node is in the document; prefixed by the list
    /// item or component instance it belongs to.
    static func viewKey(of node: Node, in scope: StateScope) -> String {
        scope.instance + (node.id.map { "#" + $0 } ?? String(node.offset))
    }

    /// The view for `node`, or `nil` when it is not visible.
    mutating func view(for node: Node, in scope: StateScope, inheriting inherited: CellStyle, parent: Arrangement) -> View? {
        guard viewDepth < Self.maximumViewDepth else {
            problems.append(Diagnostic(offset: node.offset, path: "(\(node.typeName))",
                                       message: "views nest deeper than \(Self.maximumViewDepth) levels (components inside deep templates); the rest is not drawn"))
            return marker("nested too deep", for: node, in: scope, inheriting: inherited, parent: parent)
        }
        viewDepth += 1
        defer { viewDepth -= 1 }
        // Only views that components and list items make count: the document's own nodes
        // are bounded by its size.
        guard scope.locals.isEmpty || viewCount < ScreenRenderer.maximumViews else {
            return overBudget(node, in: scope, inheriting: inherited, parent: parent)
        }
        // Outside lists and components a static node resolves the same on every frame.
        guard node.isStatic, scope.locals.isEmpty else {
            return resolve(node, in: scope, inheriting: inherited, parent: parent)
        }
        guard cachesStaticViews else {
            let view = resolve(node, in: scope, inheriting: inherited, parent: parent)
            view?.isStatic = true
            return view
        }
        let key = StaticViewCache.Key(offset: node.offset, inherited: inherited, parent: parent)
        if let view = staticViews.views[key] { return view }
        let view = resolve(node, in: scope, inheriting: inherited, parent: parent)
        view?.isStatic = true
        staticViews.views[key] = view
        return view
    }

    /// Past the view budget: an error marker for the first node left out (reported once),
    /// nothing for the others. Never kept as a static view, since a later frame may fit.
    private mutating func overBudget(_ node: Node, in scope: StateScope, inheriting inherited: CellStyle, parent: Arrangement) -> View? {
        guard viewCount == ScreenRenderer.maximumViews else { return nil }
        viewCount += 1
        problems.append(Diagnostic(offset: node.offset, path: "(\(node.typeName))",
                                   message: "the screen expands to more than \(ScreenRenderer.maximumViews) views (components and list items); the rest is not drawn"))
        return marker("more than \(ScreenRenderer.maximumViews) views", for: node, in: scope, inheriting: inherited, parent: parent)
    }

    /// An error marker in place of `node`, unstyled.
    private func marker(_ message: String, for node: Node, in scope: StateScope, inheriting inherited: CellStyle, parent: Arrangement) -> View {
        let place = Place(node: node, scope: scope, style: NodeStyle(), cellStyle: inherited, parent: parent, context: context)
        return place.view(ErrorMarker(message: message))
    }

    private mutating func resolve(_ node: Node, in scope: StateScope, inheriting inherited: CellStyle, parent: Arrangement) -> View? {
        if !scope.locals.isEmpty { viewCount += 1 }
        if let visible = node.visible, bool(visible, in: scope, node: node, field: "visible") == false { return nil }
        var style = node.style
        for bound in node.boundStyle {
            guard let json = evaluate(bound.value, in: scope) else { continue }
            if let message = style.set(bound.field, to: json), case .expression(_, _, let location) = bound.value {
                report(message, at: location)
            }
        }
        let place = Place(node: node, scope: scope, style: style, cellStyle: style.cellStyle(inheriting: inherited),
                          parent: parent, context: context)
        return node.widget.resolve(place, with: &self)
    }

    /// The views of `nodes`, children of a view placed at `place` that arranges them as given.
    /// Under a static node outside lists and components they are resolved when first asked
    /// for, so what is never laid out in sight, painted or walked costs nothing.
    mutating func children(_ nodes: NodeList, of place: Place, _ arrangement: Arrangement) -> ViewChildren {
        let (scope, inherited) = (place.scope, place.cellStyle)
        guard place.node.isStatic, scope.locals.isEmpty else {
            return .now(views(of: nodes.nodes, from: nodes, in: scope, inheriting: inherited, parent: arrangement))
        }
        // The cache is held weakly: it keeps the views that keep this closure.
        let (context, depth) = (context.forLaterViews, viewDepth)
        return .later(LaterViews(nodes) { [weak staticViews] batch in
            let cache = staticViews ?? StaticViewCache()
            var resolver = Resolver(context: context, staticViews: cache)
            resolver.viewDepth = depth
            resolver.cachesStaticViews = false
            let views = resolver.views(of: batch, from: nodes, in: scope, inheriting: inherited, parent: arrangement)
            cache.laterProblems += resolver.problems
            cache.laterDocumentProblems += resolver.documentProblems
            return views
        })
    }

    /// The views of `nodes`, some or all of `list`, with the problems of decoding them if
    /// `list` is a cold subtree.
    private mutating func views(of nodes: [Node], from list: NodeList, in scope: StateScope, inheriting inherited: CellStyle, parent arrangement: Arrangement) -> [View] {
        let views = nodes.compactMap { view(for: $0, in: scope, inheriting: inherited, parent: arrangement) }
        documentProblems += list.takeProblems()
        return views
    }

    /// The template of component `name`: the document's own, else one a script or Swift built.
    func componentTemplate(named name: String, props: JSONValue) -> Node? {
        context.document.components[name] ?? context.externalComponents?(name, props)
    }

    /// Goes one component level deeper; false (reported) past the nesting limit, which a
    /// component that includes itself reaches. Each `true` is paired with `leaveComponent()`.
    mutating func enterComponent(_ name: String, node: Node) -> Bool {
        guard componentDepth < Self.maximumComponentDepth else {
            report("component \(DiagnosticText.quoted(name)) nests deeper than \(Self.maximumComponentDepth) levels (does it include itself?)", node: node, field: "name")
            return false
        }
        componentDepth += 1
        return true
    }

    /// Comes back from a component level entered with `enterComponent`.
    mutating func leaveComponent() {
        componentDepth -= 1
    }
}

/// Where a node is being resolved: its scope, its style with bindings applied, what it
/// inherits and how its parent arranges it. Makes the node's views.
struct Place {
    let node: Node
    let scope: StateScope
    /// The node's style with bound fields evaluated.
    let style: NodeStyle
    /// Colours and attributes: the parent's patched with the node's own.
    let cellStyle: CellStyle
    /// How the parent arranges its children.
    let parent: Arrangement
    /// What the whole frame reads.
    let context: FrameContext
    /// Focus, selections and carets to show.
    var interaction: Interaction { context.interaction }

    /// The key of the node's view here (see `Resolver.viewKey`).
    var key: String { Resolver.viewKey(of: node, in: scope) }

    /// A view of the node showing `content`. `sizedByContent` makes the view as large as its
    /// content unless the style sizes it (buttons, checkboxes).
    func view(_ content: any ViewContent, _ arrangement: Arrangement = .leaf, children: ViewChildren = [],
              border: BorderKind = .none, sizedByContent: Bool = false) -> View {
        var layout = style.layoutStyle(arrangement: arrangement, border: border)
        if sizedByContent {
            layout.width = layout.width ?? .auto
            layout.height = layout.height ?? .auto
        }
        let key = self.key
        let view = View(key: key, node: node, scope: scope, content: content, children: children,
                        layoutStyle: layout, cellStyle: cellStyle, paintsBackground: style.background != nil, border: border,
                        borderStyle: style.borderColor.map { CellStyle(foreground: Color($0)) }.map(cellStyle.patched) ?? cellStyle,
                        wrap: style.wrap ?? .word, textAlign: style.textAlign ?? .left)
        view.isFocused = context.interaction.focused == key
        view.selected = context.interaction.selection[key]
        view.scrollOffset = context.interaction.scroll[key] ?? 0
        view.caret = view.isFocused ? context.interaction.caret[key] : nil
        view.tick = context.interaction.tick
        return view
    }
}
