import HybridLayout

/// `column`: children top to bottom.
struct Column: ContainerWidget {
    static let typeName = "column"
    static let arrangement = Arrangement.vertical
    let childNodes: NodeList
}
