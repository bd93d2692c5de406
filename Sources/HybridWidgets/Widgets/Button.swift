import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `button`: `[ label ]`; Enter, Space or a click runs `onPress`.
struct Button: Widget {
    static let typeName = "button"
    static let fields = ["label", "onPress"]
    let label: PropertyValue
    let onPress: Action?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Button? {
        guard let label = decoder.required(json, "label", type: typeName, { $0.textProperty($1) }) else { return nil }
        return Button(label: label, onPress: decoder.optional(json, "onPress") { $0.action($1) })
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        place.view(Content(label: resolver.string(label, in: place.scope) ?? ""), sizedByContent: true)
    }

    func isFocusable(_ view: View) -> Bool { true }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        guard key == "enter" || key == "space" else { return false }
        host.run(onPress, for: view, event: view.event())
        return true
    }

    func keyHelp(for view: View) -> [KeyHint] {
        onPress.map { [KeyHint(keys: ["enter"], help: $0.help ?? "press")] } ?? []
    }

    func click(x: Int, y: Int, on view: View, host: any WidgetHost) {
        _ = handleKey("enter", on: view, host: host)
    }

    struct Content: ViewContent {
        let label: String

        func size(of view: View, maxWidth: Int) -> Size {
            Size(width: DisplayWidth.of(label) + 4, height: 1)
        }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            Painter.write("[ " + label + " ]", style: Painter.focusable(view.cellStyle, view),
                          x: area.inner.x, y: area.inner.y, into: &buffer, clip: area.clip)
        }
    }
}
