import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `checkbox`: `[x] label`; Enter, Space or a click toggles `checked` (two-way) and runs
/// `onChange`.
struct Checkbox: Widget {
    static let typeName = "checkbox"
    static let fields = ["label", "checked", "onChange"]
    let label: PropertyValue?
    let checked: PropertyValue?
    let onChange: Action?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Checkbox? {
        Checkbox(label: decoder.optional(json, "label") { $0.textProperty($1) },
                 checked: decoder.optional(json, "checked") { $0.booleanProperty($1) },
                 onChange: decoder.optional(json, "onChange") { $0.action($1) })
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        // A checkbox bound to nothing keeps its ticks in the interaction instead.
        let toggled = checked?.bindingName == nil ? place.interaction.checked[place.key] : nil
        let isChecked = toggled ?? resolver.bool(checked, in: place.scope, node: place.node, field: "checked") ?? false
        return place.view(Content(label: resolver.string(label, in: place.scope) ?? "", isChecked: isChecked), sizedByContent: true)
    }

    func isFocusable(_ view: View) -> Bool { true }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        guard key == "enter" || key == "space", let content = view.content as? Content else { return false }
        let bound = host.boundValue(checked, of: view)
        let isChecked = bound.map { $0 == .bool(true) } ?? content.isChecked
        if bound != nil {
            host.write(.bool(!isChecked), to: checked, of: view)
        } else {
            host.interaction.checked[view.key] = !isChecked
        }
        host.run(onChange, for: view, event: view.event(value: .bool(!isChecked)))
        return true
    }

    func keyHelp(for view: View) -> [KeyHint] {
        [KeyHint(keys: ["space"], help: onChange?.help ?? "toggle")]
    }

    func click(x: Int, y: Int, on view: View, host: any WidgetHost) {
        _ = handleKey("enter", on: view, host: host)
    }

    struct Content: ViewContent {
        let label: String
        let isChecked: Bool

        func size(of view: View, maxWidth: Int) -> Size {
            Size(width: 4 + DisplayWidth.of(label), height: 1)
        }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            Painter.write((isChecked ? "[x] " : "[ ] ") + label, style: Painter.focusable(view.cellStyle, view),
                          x: area.inner.x, y: area.inner.y, into: &buffer, clip: area.clip)
        }
    }
}
