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
}

/// Builds the view tree of one frame: evaluates bindings against state, expands lists and
/// components, drops invisible nodes, and records every evaluation error where it happened.
struct Resolver {
    let document: ScreenDocument
    /// Views of static nodes, kept across frames by the renderer.
    let staticViews: StaticViewCache
    /// Focus, selections, scroll positions and carets to show.
    let interaction: Interaction
    /// Components defined outside the document (by scripts).
    var externalComponents: ((String, JSONValue) -> Node?)?
    private(set) var problems: [Diagnostic] = []
    private var componentDepth = 0
    /// Deeper component nesting than this is taken for a component that includes itself.
    static let maximumComponentDepth = 32

    init(document: ScreenDocument, staticViews: StaticViewCache, interaction: Interaction) {
        self.document = document
        self.staticViews = staticViews
        self.interaction = interaction
    }

    // MARK: Evaluation

    private mutating func report(_ message: String, at location: ExpressionLocation) {
        problems.append(Diagnostic(offset: location.offset, path: location.path, message: message))
    }

    private mutating func report(_ message: String, node: Node, field: String) {
        problems.append(Diagnostic(offset: node.offset, path: "(\(node.typeName)).\(field)", message: message))
    }

    /// The value of a prop, or `nil` (reported) when an expression in it fails.
    mutating func evaluate(_ value: PropertyValue, in scope: StateScope) -> JSONValue? {
        do throws(PropertyValue.Failure) {
            return try value.value(in: scope)
        } catch {
            report(error.error.message, at: error.location)
            return nil
        }
    }

    mutating func string(_ value: PropertyValue?, in scope: StateScope) -> String? {
        switch value {
        case nil:
            return nil
        case .constant(.string(let text))?:
            // The common case, taken for every literal span of a long text.
            return text
        case .expression(let template, _, let location)?:
            do {
                return try template.evaluateString(in: scope)
            } catch {
                report(error.message, at: location)
                return ""
            }
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

    private mutating func bool(_ value: PropertyValue?, in scope: StateScope, node: Node, field: String) -> Bool? {
        guard let value, let json = evaluate(value, in: scope) else { return nil }
        if case .bool(let flag) = json { return flag }
        report("expected a boolean, got \(Self.display(json))", node: node, field: field)
        return nil
    }

    private mutating func number(_ value: PropertyValue, in scope: StateScope, node: Node, field: String) -> Double? {
        switch evaluate(value, in: scope) {
        case .integer(let number)?: return Double(number)
        case .number(let number)?: return number
        case nil: return nil
        case let other?:
            report("expected a number, got \(Self.display(other))", node: node, field: field)
            return nil
        }
    }

    private mutating func array(_ value: PropertyValue?, in scope: StateScope, node: Node, field: String) -> [JSONValue]? {
        guard let value, let json = evaluate(value, in: scope) else { return nil }
        if case .array(let items) = json { return items }
        report("expected an array, got \(Self.display(json))", node: node, field: field)
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
        // Outside lists and components a static node resolves the same on every frame.
        guard node.isStatic, scope.locals.isEmpty else {
            return resolve(node, in: scope, inheriting: inherited, parent: parent)
        }
        let key = StaticViewCache.Key(offset: node.offset, inherited: inherited, parent: parent)
        if let view = staticViews.views[key] { return view }
        let view = resolve(node, in: scope, inheriting: inherited, parent: parent)
        view?.isStatic = true
        staticViews.views[key] = view
        return view
    }

    private mutating func resolve(_ node: Node, in scope: StateScope, inheriting inherited: CellStyle, parent: Arrangement) -> View? {
        if let visible = node.visible, bool(visible, in: scope, node: node, field: "visible") == false { return nil }
        var style = node.style
        for bound in node.boundStyle {
            guard let json = evaluate(bound.value, in: scope) else { continue }
            if let message = style.set(bound.field, to: json), case .expression(_, _, let location) = bound.value {
                report(message, at: location)
            }
        }
        let cellStyle = style.cellStyle(inheriting: inherited)
        let interaction = self.interaction
        func make(_ content: View.Content, _ arrangement: Arrangement = .leaf, children: [View] = [],
                  border: BorderKind = .none, sizedByContent: Bool = false) -> View {
            var layout = style.layoutStyle(arrangement: arrangement, border: border)
            if sizedByContent {
                layout.width = layout.width ?? .auto
                layout.height = layout.height ?? .auto
            }
            let key = Self.viewKey(of: node, in: scope)
            let view = View(key: key, node: node, scope: scope, id: node.id, typeName: node.typeName, sourceOffset: node.offset, content: content,
                        children: children, layoutStyle: layout, cellStyle: cellStyle,
                        paintsBackground: style.background != nil, border: border,
                        borderStyle: style.borderColor.map { CellStyle(foreground: Color($0)) }.map(cellStyle.patched) ?? cellStyle,
                        wrap: style.wrap ?? .word, textAlign: style.textAlign ?? .left)
            view.isFocused = interaction.focused == key
            view.selected = interaction.selection[key]
            view.scrollOffset = interaction.scroll[key] ?? 0
            view.caret = view.isFocused ? interaction.caret[key] : nil
            view.tick = interaction.tick
            return view
        }
        func children(_ nodes: [Node], _ arrangement: Arrangement) -> [View] {
            nodes.compactMap { view(for: $0, in: scope, inheriting: cellStyle, parent: arrangement) }
        }

        switch node.kind {
        case .column(let nodes):
            return make(.container(title: nil), .vertical, children: children(nodes, .vertical))
        case .row(let nodes):
            return make(.container(title: nil), .horizontal, children: children(nodes, .horizontal))
        case .stack(let nodes):
            return make(.container(title: nil), .overlay, children: children(nodes, .overlay))
        case .scroll(let nodes):
            return make(.container(title: nil), .scrolling, children: children(nodes, .scrolling))
        case .box(let title, let nodes):
            return make(.container(title: string(title, in: scope)), .vertical,
                        children: children(nodes, .vertical), border: style.border ?? .single)
        case .text(let text, let spans):
            var runs: [TextRun] = []
            runs.reserveCapacity(spans.count + 1)
            if let text = string(text, in: scope) { runs.append(TextRun(text: text, style: cellStyle)) }
            // By index, not `for span in spans`: copying each span out of the array costs more
            // than resolving it.
            for index in spans.indices {
                runs.append(TextRun(text: string(spans[index].text, in: scope) ?? "",
                                    style: spans[index].style.cellStyle(inheriting: cellStyle)))
            }
            return make(.text(runs))
        case .button(let label, _):
            return make(.button(label: string(label, in: scope) ?? ""), sizedByContent: true)
        case .input(let value, let placeholder, let secure, _, _):
            // An input bound to nothing keeps what was typed in the interaction instead.
            let typed = value?.bindingName == nil ? interaction.text[Self.viewKey(of: node, in: scope)] : nil
            return make(.input(text: typed ?? string(value, in: scope) ?? "", placeholder: string(placeholder, in: scope) ?? "",
                               secure: bool(secure, in: scope, node: node, field: "secure") ?? false))
        case .checkbox(let label, let checked, _):
            let toggled = checked?.bindingName == nil ? interaction.checked[Self.viewKey(of: node, in: scope)] : nil
            return make(.checkbox(label: string(label, in: scope) ?? "",
                                  checked: toggled ?? bool(checked, in: scope, node: node, field: "checked") ?? false),
                        sizedByContent: true)
        case .select(let options, let selected, _):
            let items = array(options, in: scope, node: node, field: "options") ?? []
            let labels = items.map { Self.display($0["label"] ?? $0) }
            var index: Int?
            if selected?.bindingName == nil, let chosen = interaction.selection[Self.viewKey(of: node, in: scope)] {
                index = chosen
            } else if selected == nil {
                // A select bound to nothing starts on its first option.
                index = items.isEmpty ? nil : 0
            } else if let value = selected.flatMap({ evaluate($0, in: scope) }) {
                // An option's value first; a number is an index only when no option has that value.
                index = items.firstIndex { ($0["value"] ?? $0) == value }
                if index == nil, case .integer(let position) = value, items.indices.contains(position) { index = position }
                if index == nil { index = items.firstIndex { Self.display($0["label"] ?? $0) == Self.display(value) } }
            }
            return make(.select(options: labels, selected: index), sizedByContent: true)
        case .list(let items, let template, _):
            let values = array(items, in: scope, node: node, field: "items") ?? []
            var views: [View] = []
            let itemsPath = items.bindingName.flatMap(scope.statePath(of:))
            for (index, item) in values.enumerated() {
                let instance = "\(node.offset)[\(index)]/"
                let itemScope = scope
                    .with(.init(name: "item", value: item, path: itemsPath.map { "\($0).\(index)" }), instance: instance)
                    .with(.init(name: "index", value: .integer(index)), instance: "")
                if let child = view(for: template, in: itemScope, inheriting: cellStyle, parent: .vertical) { views.append(child) }
            }
            let list = make(.container(title: nil), .vertical, children: views)
            list.selected = list.selected.map { min($0, views.count - 1) }.flatMap { $0 >= 0 ? $0 : nil }
            return list
        case .table(let columns, let rows, _):
            let rowValues = array(rows, in: scope, node: node, field: "rows") ?? []
            let cells = rowValues.map { row in (row.arrayValue ?? [row]).map(Self.display) }
            let table = make(.table(columns: columns, rows: cells))
            // A selection left from a longer table lands on the last row.
            table.selected = table.selected.map { min($0, cells.count - 1) }.flatMap { $0 >= 0 ? $0 : nil }
            return table
        case .tabs(let tabs, let selected):
            var index = interaction.selection[Self.viewKey(of: node, in: scope)] ?? 0
            if let selected, let json = evaluate(selected, in: scope) {
                if case .integer(let position) = json, tabs.indices.contains(position) {
                    index = position
                } else {
                    report("expected a tab index 0...\(tabs.count - 1), got \(Self.display(json))", node: node, field: "selected")
                }
            }
            let titles = tabs.map { string($0.title, in: scope) ?? "" }
            let body = tabs.indices.contains(index) ? view(for: tabs[index].body, in: scope, inheriting: cellStyle, parent: .vertical) : nil
            let tabsView = make(.tabs(titles: titles, selected: index), .vertical, children: body.map { [$0] } ?? [])
            tabsView.layoutStyle.border.top += 2
            return tabsView
        case .progress(let value, let label):
            let fraction = number(value, in: scope, node: node, field: "value") ?? 0
            return make(.progress(value: min(max(fraction, 0), 1), label: string(label, in: scope)))
        case .spinner(let label):
            return make(.spinner(label: string(label, in: scope)), sizedByContent: true)
        case .divider:
            let view = make(.divider(vertical: parent == .horizontal))
            if parent == .horizontal { view.layoutStyle.width = view.layoutStyle.width ?? .cells(1) }
            return view
        case .spacer:
            let view = make(.spacer)
            if style.flex == nil && style.width == nil && style.height == nil { view.layoutStyle.flex = 1 }
            return view
        case .component(let name, let props):
            return component(named: name, props: props, node: node, scope: scope, inheriting: cellStyle, parent: parent, make: make)
        case .invalid(let message):
            return make(.error(message: message))
        }
    }

    private mutating func component(named name: String, props: PropertyValue?, node: Node, scope: StateScope,
                                    inheriting cellStyle: CellStyle, parent: Arrangement,
                                    make: (View.Content, Arrangement, [View], BorderKind, Bool) -> View) -> View? {
        let values = props.flatMap { evaluate($0, in: scope) } ?? .object(JSONObject())
        guard let template = document.components[name] ?? externalComponents?(name, values) else {
            return make(.error(message: "unknown component \"\(name)\""), .leaf, [], .none, false)
        }
        guard componentDepth < Self.maximumComponentDepth else {
            report("component \"\(name)\" nests deeper than \(Self.maximumComponentDepth) levels (does it include itself?)", node: node, field: "name")
            return make(.error(message: "component \"\(name)\" nests too deep"), .leaf, [], .none, false)
        }
        var memberPaths: [String: String] = [:]
        if case .object(let members)? = props {
            for member in members {
                if let path = member.value.bindingName.flatMap(scope.statePath(of:)) { memberPaths[member.key] = path }
            }
        }
        componentDepth += 1
        defer { componentDepth -= 1 }
        let local = StateScope.Local(name: "props", value: values, memberPaths: memberPaths)
        guard let inner = view(for: template, in: scope.with(local, instance: "c\(node.offset)/"), inheriting: cellStyle, parent: parent) else { return nil }
        guard node.style != NodeStyle() else { return inner }
        // The component node's own style sizes a wrapper around the template's view.
        return make(.container(title: nil), .vertical, [inner], .none, false)
    }
}
