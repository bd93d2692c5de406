import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `list`: `template` drawn once per item of `items` (`item` and `index` in scope), top to
/// bottom; with `onSelect`, arrows move a highlighted item and Enter or a click picks it.
struct List: Widget {
    static let typeName = "list"
    static let fields = ["items", "template", "onSelect"]
    let items: PropertyValue
    let template: Node
    let onSelect: Action?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> List? {
        let items = decoder.required(json, "items", type: typeName) { $0.arrayProperty($1) }
        let template = decoder.required(json, "template", type: typeName) { $0.node($1) }
        guard let items, let template else { return nil }
        return List(items: items, template: template, onSelect: decoder.optional(json, "onSelect") { $0.action($1) })
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        let values = resolver.array(items, in: place.scope, node: place.node, field: "items") ?? []
        var views: [View] = []
        let itemsPath = items.bindingName.flatMap(place.scope.statePath(of:))
        for (index, item) in values.enumerated() {
            let instance = "\(place.node.offset)[\(index)]/"
            let itemScope = place.scope
                .with(.init(name: "item", value: item, path: itemsPath.map { "\($0).\(index)" }), instance: instance)
                .with(.init(name: "index", value: .integer(index)), instance: "")
            if let child = resolver.view(for: template, in: itemScope, inheriting: place.cellStyle, parent: .vertical) { views.append(child) }
        }
        let list = place.view(Content(), .vertical, children: .now(views))
        list.selected = RowSelection.clamp(list.selected, count: views.count)
        return list
    }

    func isFocusable(_ view: View) -> Bool { onSelect != nil && !view.children.isEmpty }

    func focus(_ view: View, interaction: inout Interaction) {
        RowSelection.focus(view, interaction: &interaction)
    }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        RowSelection.handle(key, on: view, count: view.children.count, host: host) { index in
            guard let onSelect else { return }
            let item = view.children[index].scope.value(of: "item").map(\.json) ?? .null
            host.run(onSelect, for: view.children[index], scope: nil,
                     event: view.event(value: item, extra: [("index", .integer(index)), ("item", item)]))
        }
    }

    func keyHelp(for view: View) -> [KeyHint] {
        RowSelection.keyHelp(count: view.children.count, onSelect: onSelect)
    }

    /// A click selects the item under the pointer.
    func click(x: Int, y: Int, on view: View, host: any WidgetHost) {
        if let index = view.children.firstIndex(where: { $0.visibleFrame.contains(x: x, y: y) }) {
            host.interaction.selection[view.key] = index
        }
    }

    /// What must show is the selected item, not the whole list.
    func revealedView(of view: View) -> View {
        guard let selected = view.selected, view.children.indices.contains(selected) else { return view }
        return view.children[selected]
    }

    /// The items are child views; a focused list shows its selected one reversed.
    struct Content: ViewContent {
        func paintOver(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            guard view.isFocused, let selected = view.selected, view.children.indices.contains(selected) else { return }
            buffer.applyStyle(CellStyle(attributes: .reverse), to: view.children[selected].frame.intersection(area.clip))
        }
    }
}
