import HybridDocument
import HybridJSON
import HybridLayout

/// `component`: the node template `name` (from the document's `components`, a script or
/// Swift) drawn with `props` in scope.
struct Component: Widget {
    static let typeName = "component"
    static let fields = ["name", "props"]
    let name: String
    let props: PropertyValue?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Component? {
        guard let name = decoder.required(json, "name", type: typeName, { $0.plainString($1) }) else { return nil }
        // Checked against the document's `components` once the whole document is read.
        decoder.componentUses.append((name, json["name"]!.offset, decoder.path.description + ".name"))
        let props = decoder.optional(json, "props") { decoder, value -> PropertyValue? in
            guard value.members != nil || DocumentDecoder.isSingleExpression(value) else {
                decoder.report("expected an object of props or an expression, got \(value.kindDescription)", at: value.offset)
                return nil
            }
            return decoder.bindable(value)
        }
        return Component(name: name, props: props)
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        let values = props.flatMap { resolver.evaluate($0, in: place.scope) } ?? .object(JSONObject())
        guard let template = resolver.componentTemplate(named: name, props: values) else {
            return place.view(ErrorMarker(message: "unknown component \(DiagnosticText.quoted(name))"))
        }
        guard resolver.enterComponent(name, node: place.node) else {
            return place.view(ErrorMarker(message: "component \(DiagnosticText.quoted(name)) nests too deep"))
        }
        defer { resolver.leaveComponent() }
        // Props bound one by one write back to where each came from.
        var memberPaths: [String: String] = [:]
        if case .object(let members)? = props {
            for member in members {
                if let path = member.value.bindingName.flatMap(place.scope.statePath(of:)) { memberPaths[member.key] = path }
            }
        }
        let local = StateScope.Local(name: "props", value: values, memberPaths: memberPaths)
        guard let inner = resolver.view(for: template, in: place.scope.with(local, instance: "c\(place.node.offset)/"),
                                        inheriting: place.cellStyle, parent: place.parent) else { return nil }
        guard place.node.style != NodeStyle() else { return inner }
        // The component node's own style sizes a wrapper around the template's view.
        return place.view(Container(), .vertical, children: [inner])
    }
}
