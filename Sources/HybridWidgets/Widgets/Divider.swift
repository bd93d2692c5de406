import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `divider`: a dim rule, across a column or down a row.
struct Divider: Widget {
    static let typeName = "divider"
    static let fields: [String] = []
    static let isStaticWhenUnbound = true

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Divider? { Divider() }

    var isStatic: Bool { true }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        let isVertical = place.parent == .horizontal
        let view = place.view(Content(isVertical: isVertical))
        if isVertical { view.layoutStyle.width = view.layoutStyle.width ?? .cells(1) }
        return view
    }

    struct Content: ViewContent {
        let isVertical: Bool

        func size(of view: View, maxWidth: Int) -> Size { Size(width: 1, height: 1) }

        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let (inner, clip, style) = (area.inner, area.clip, Painter.dimmed(view.cellStyle))
            if isVertical {
                for y in max(inner.y, clip.y)..<max(max(inner.y, clip.y), min(inner.maxY, clip.maxY)) {
                    Painter.write("│", style: style, x: inner.x, y: y, into: &buffer, clip: clip)
                }
            } else {
                Painter.rule("─", x: inner.x, y: inner.y, width: inner.width, style: style, into: &buffer, clip: clip)
            }
        }
    }
}
