import HybridDocument
import HybridJSON
import HybridLayout

/// `spacer`: empty room that grows (`flex: 1`) unless its style sizes it.
struct Spacer: Widget {
    static let typeName = "spacer"
    static let fields: [String] = []
    static let isStaticWhenUnbound = true

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Spacer? { Spacer() }

    var isStatic: Bool { true }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        let view = place.view(Container())
        let style = place.style
        if style.flex == nil && style.width == nil && style.height == nil { view.layoutStyle.flex = 1 }
        return view
    }
}
