import HybridLayout

/// `row`: children left to right.
struct Row: ContainerWidget {
    static let typeName = "row"
    static let arrangement = Arrangement.horizontal
    let childNodes: NodeList
}
