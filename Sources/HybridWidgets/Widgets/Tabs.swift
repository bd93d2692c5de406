import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `tabs`: a bar of titles over the selected tab's body; Left and Right switch tabs, writing
/// `selected` (two-way) when it is bound.
struct Tabs: Widget {
    static let typeName = "tabs"
    static let fields = ["tabs", "selected"]
    let tabs: [Tab]
    let selected: PropertyValue?

    /// One tab: its label and what it shows when selected.
    struct Tab: Sendable {
        var title: PropertyValue
        var body: Node
    }

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Tabs? {
        guard let tabs = decoder.required(json, "tabs", type: typeName, { $0.tabs($1) }) else { return nil }
        let selected = decoder.optional(json, "selected") { decoder, value in
            decoder.property(value, expecting: "a tab index or an expression") { $0 == .integer }
        }
        return Tabs(tabs: tabs, selected: selected)
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        var index = place.interaction.selection[place.key] ?? 0
        if let selected, let json = resolver.evaluate(selected, in: place.scope) {
            if case .integer(let position) = json, tabs.indices.contains(position) {
                index = position
            } else {
                resolver.report("expected a tab index 0...\(tabs.count - 1), got \(DiagnosticText.cut(Resolver.display(json)))", node: place.node, field: "selected")
            }
        }
        let titles = tabs.map { resolver.string($0.title, in: place.scope) ?? "" }
        let body = tabs.indices.contains(index)
            ? resolver.view(for: tabs[index].body, in: place.scope, inheriting: place.cellStyle, parent: .vertical) : nil
        let view = place.view(Content(titles: titles, selected: index), .vertical, children: .now(body.map { [$0] } ?? []))
        // The bar and its rule sit above the body.
        view.layoutStyle.border.top += 2
        return view
    }

    func isFocusable(_ view: View) -> Bool { true }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        guard let content = view.content as? Content else { return false }
        let step = key == "right" ? 1 : key == "left" ? -1 : 0
        guard step != 0, !content.titles.isEmpty else { return false }
        let next = (content.selected + step + content.titles.count) % content.titles.count
        if selected?.bindingName != nil {
            host.write(.integer(next), to: selected, of: view)
        } else {
            host.interaction.selection[view.key] = next
        }
        return true
    }

    func keyHelp(for view: View) -> [KeyHint] {
        [KeyHint(keys: ["left", "right"], help: "switch tab")]
    }

    struct Content: ViewContent {
        let titles: [String]
        let selected: Int

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let style = view.cellStyle
            var x = area.inner.x
            let bar = area.inner.y - 2
            for (index, title) in titles.enumerated() {
                let label = index == selected ? "[" + title + "]" : " " + title + " "
                let tabStyle = index == selected ? Painter.focusable(style.patched(with: CellStyle(attributes: .bold)), view) : style
                Painter.write(label, style: tabStyle, x: x, y: bar, into: &buffer, clip: area.visible)
                x += DisplayWidth.of(label) + 1
            }
            Painter.rule("─", x: area.inner.x, y: bar + 1, width: area.inner.width, style: Painter.dimmed(style),
                         into: &buffer, clip: area.visible)
        }
    }
}

extension DocumentDecoder {
    /// The `tabs` of a tabs node: `{title, body}` each.
    fileprivate mutating func tabs(_ json: SourceJSON) -> [Tabs.Tab]? {
        guard let items = json.items else {
            report("expected an array of tabs, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        if items.isEmpty { report("\"tabs\" needs at least one tab", at: json.offset) }
        var tabs: [Tabs.Tab] = []
        for (index, item) in items.enumerated() {
            atIndex(index) { decoder in
                guard let members = item.members else {
                    decoder.report("expected a tab {\"title\", \"body\"}, got \(item.kindDescription)", at: item.offset)
                    return
                }
                decoder.checkFields(members, allowed: ["title", "body"], owner: "a tab")
                let title = decoder.required(item, "title", type: "tab") { $0.textProperty($1) }
                let body = decoder.required(item, "body", type: "tab") { $0.node($1) }
                if let title, let body { tabs.append(Tabs.Tab(title: title, body: body)) }
            }
        }
        return tabs
    }
}
