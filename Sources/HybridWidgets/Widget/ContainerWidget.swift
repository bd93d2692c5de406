import HybridDocument
import HybridJSON
import HybridLayout

/// What `column`, `row` and `stack` share: children and nothing else, placed by the layout
/// engine in the container's arrangement. Each is one small file naming its type and
/// arrangement.
protocol ContainerWidget: Widget {
    /// How the container places its children.
    static var arrangement: Arrangement { get }
    init(childNodes: NodeList)
}

extension ContainerWidget {
    static var fields: [String] { ["children"] }
    static var isStaticWhenUnbound: Bool { true }

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Self? {
        Self(childNodes: decoder.children(json))
    }

    var isStatic: Bool { childNodes.isStatic }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        place.view(Container(), Self.arrangement, children: resolver.children(childNodes, of: place, Self.arrangement))
    }
}
