import HybridDocument
import HybridJSON
import HybridLayout

/// `scroll`: a viewport over children laid out top to bottom, moved by keys and the wheel.
struct Scroll: Widget {
    static let typeName = "scroll"
    static let fields = ["children"]
    let childNodes: NodeList

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Scroll? {
        Scroll(childNodes: decoder.children(json))
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        place.view(Container(), .scrolling, children: resolver.children(childNodes, of: place, .scrolling))
    }

    /// A scroll view takes focus only to scroll text; with focusable content, focusing that
    /// content scrolls it into view instead.
    func isFocusable(_ view: View) -> Bool {
        view.contentHeight > view.frame.height && !view.children.contains(where: \.containsFocusable)
    }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        let page = max(1, view.frame.height - 1)
        let step = ["up": -1, "down": 1, "pageup": -page, "pagedown": page][key] ?? 0
        guard step != 0 else { return false }
        view.scroll(by: step, in: &host.interaction)
        return true
    }

    func keyHelp(for view: View) -> [KeyHint] {
        [KeyHint(keys: ["up", "down"], help: "scroll")]
    }
}

extension View {
    /// Scrolls a scroll view by `step` rows, kept between the top and the end of its content.
    public func scroll(by step: Int, in interaction: inout Interaction) {
        let limit = max(0, contentHeight - frame.height + layoutStyle.insets.vertical)
        let current = interaction.scroll[key] ?? 0
        interaction.scroll[key] = min(max(0, current + step), limit)
    }
}
