/// How many views a document's components make when drawn, worked out from their definitions
/// alone, so `hybrid validate` can warn about a screen that reaches
/// `ScreenRenderer.maximumViews` before anyone renders it. List items count once (their
/// number is data); a component nested past `Resolver.maximumComponentDepth`, or inside
/// itself, counts nothing (the renderer draws a marker there).
struct ComponentExpansion {
    /// Each component's own nodes and the components its template uses, by name.
    private var definitions: [String: (nodes: Int, uses: [String])] = [:]
    /// Views per component, once worked out.
    private var known: [String: Int] = [:]
    /// Counts stop growing here: anything above the budget is simply too many.
    private let ceiling = ScreenRenderer.maximumViews + 1

    /// Records component `name`: its template holds `nodes` nodes and uses `uses`.
    mutating func define(_ name: String, nodes: Int, uses: [String]) {
        definitions[name] = (nodes, uses)
    }

    /// The views of `nodes` nodes using the components `uses`, capped just above the budget.
    mutating func views(nodes: Int, uses: [String]) -> Int {
        var visiting = Set<String>()
        return total(nodes, uses, depth: 0, visiting: &visiting)
    }

    private mutating func total(_ nodes: Int, _ uses: [String], depth: Int, visiting: inout Set<String>) -> Int {
        var count = min(nodes, ceiling)
        for name in uses where count < ceiling {
            count = min(count + views(of: name, depth: depth + 1, visiting: &visiting), ceiling)
        }
        return count
    }

    private mutating func views(of name: String, depth: Int, visiting: inout Set<String>) -> Int {
        if let views = known[name] { return views }
        guard depth <= Resolver.maximumComponentDepth, let definition = definitions[name],
              visiting.insert(name).inserted else { return 0 }
        defer { visiting.remove(name) }
        let views = total(definition.nodes, definition.uses, depth: depth, visiting: &visiting)
        known[name] = views
        return views
    }
}
