import HybridLayout

/// `stack`: children drawn on top of each other (overlays, badges).
struct Stack: ContainerWidget {
    static let typeName = "stack"
    static let arrangement = Arrangement.overlay
    let childNodes: NodeList
}
