import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `box`: a child or children in a bordered frame (single line unless the style says), with
/// an optional title on the top border.
struct Box: Widget {
    static let typeName = "box"
    static let fields = ["child", "children", "title"]
    static let isStaticWhenUnbound = true
    let title: PropertyValue?
    let childNodes: NodeList

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Box? {
        if json["child"] != nil && json["children"] != nil {
            decoder.report("a box takes \"child\" or \"children\", not both", at: json.offset)
        }
        let content = decoder.child(json, key: "child") ?? decoder.children(json)
        return Box(title: decoder.optional(json, "title") { $0.textProperty($1) }, childNodes: content)
    }

    var isStatic: Bool { areConstant(title) && childNodes.isStatic }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        place.view(Content(title: resolver.string(title, in: place.scope)), .vertical,
                   children: resolver.children(childNodes, of: place, .vertical), border: place.style.border ?? .single)
    }

    /// The title, drawn bold over the top border.
    struct Content: ViewContent {
        let title: String?

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let frame = view.frame
            guard view.border != .none, frame.width > 4, frame.height >= 2, let title, !title.isEmpty else { return }
            let shown = Painter.truncate(title, to: frame.width - 4)
            Painter.write(" " + shown + " ", style: view.borderStyle.patched(with: CellStyle(attributes: .bold)),
                          x: frame.x + 1, y: frame.y, into: &buffer, clip: area.visible)
        }
    }
}
