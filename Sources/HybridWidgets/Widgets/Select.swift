import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `select`: `[option ▾]`; arrows, Enter and Space step through `options` (strings or
/// `{label, value}`), writing the chosen value to `selected` (two-way) and running `onChange`.
struct Select: Widget {
    static let typeName = "select"
    static let fields = ["options", "selected", "onChange"]
    let options: PropertyValue
    let selected: PropertyValue?
    let onChange: Action?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Select? {
        guard let options = decoder.required(json, "options", type: typeName, { $0.options($1) }) else { return nil }
        let selected = decoder.optional(json, "selected") { decoder, value in
            decoder.property(value, expecting: "a string, an index or an expression") { $0 == .string || $0 == .integer }
        }
        return Select(options: options, selected: selected, onChange: decoder.optional(json, "onChange") { $0.action($1) })
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        let items = resolver.array(options, in: place.scope, node: place.node, field: "options") ?? []
        let labels = items.map { Resolver.display($0["label"] ?? $0) }
        var index: Int?
        if selected?.bindingName == nil, let chosen = place.interaction.selection[place.key] {
            index = chosen
        } else if selected == nil {
            // A select bound to nothing starts on its first option.
            index = items.isEmpty ? nil : 0
        } else if let value = selected.flatMap({ resolver.evaluate($0, in: place.scope) }) {
            // An option's value first; a number is an index only when no option has that value.
            index = items.firstIndex { ($0["value"] ?? $0) == value }
            if index == nil, case .integer(let position) = value, items.indices.contains(position) { index = position }
            if index == nil { index = items.firstIndex { Resolver.display($0["label"] ?? $0) == Resolver.display(value) } }
        }
        return place.view(Content(labels: labels, selected: index), sizedByContent: true)
    }

    func isFocusable(_ view: View) -> Bool { true }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        guard let content = view.content as? Content else { return false }
        let step = ["down": 1, "right": 1, "enter": 1, "space": 1, "up": -1, "left": -1][key] ?? 0
        guard step != 0, !content.labels.isEmpty else { return false }
        let next = ((content.selected ?? -1) + step + content.labels.count) % content.labels.count
        let items = (try? options.value(in: view.scope.with(state: host.state)))?.arrayValue ?? []
        let chosen = items.indices.contains(next) ? (items[next]["value"] ?? items[next]) : .integer(next)
        if selected?.bindingName != nil {
            host.write(chosen, to: selected, of: view)
        } else {
            host.interaction.selection[view.key] = next
        }
        host.run(onChange, for: view, event: view.event(value: chosen, extra: [("index", .integer(next))]))
        return true
    }

    func keyHelp(for view: View) -> [KeyHint] {
        [KeyHint(keys: ["up", "down"], help: onChange?.help ?? "choose")]
    }

    struct Content: ViewContent {
        let labels: [String]
        let selected: Int?

        func size(of view: View, maxWidth: Int) -> Size {
            Size(width: labels.reduce(0) { max($0, DisplayWidth.of($1)) } + 4, height: 1)
        }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let width = max(0, area.inner.width - 4)
            let current = selected.map { labels[$0] } ?? ""
            let (style, x, y) = (Painter.focusable(view.cellStyle, view), area.inner.x, area.inner.y)
            Painter.write("[", style: style, x: x, y: y, into: &buffer, clip: area.clip)
            Painter.writeAligned(current, width: width, alignment: .left, style: style, x: x + 1, y: y, into: &buffer, clip: area.clip)
            Painter.write(" ▾]", style: style, x: x + 1 + width, y: y, into: &buffer, clip: area.clip)
        }
    }
}

extension DocumentDecoder {
    /// A select's `options`: an expression, or an array of strings and `{label, value}`.
    fileprivate mutating func options(_ json: SourceJSON) -> PropertyValue? {
        if Self.isSingleExpression(json) { return bindable(json) }
        guard let items = json.items else {
            report("expected an array of options or an expression, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        for (index, item) in items.enumerated() {
            atIndex(index) { decoder in
                switch item.kind {
                case .string: break
                case .object:
                    decoder.checkFields(item.members!, allowed: ["label", "value"], owner: "an option")
                    for field in ["label", "value"] where item[field] == nil {
                        decoder.report("missing required field \"\(field)\" for an option", at: item.offset)
                    }
                default:
                    decoder.report("expected an option: a string or {\"label\", \"value\"}, got \(item.kindDescription)", at: item.offset)
                }
            }
        }
        return bindable(json)
    }
}
