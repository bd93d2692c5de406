#if canImport(Glibc)
import Glibc
#endif
import HybridDocument
import HybridJSON

/// Walks a parsed document, building typed values and collecting every problem with its path.
struct DocumentDecoder: ActionDecoder {
    var diagnostics: [Diagnostic] = []
    var path = JSONPath()
    /// Ids seen so far, with the path that used each first.
    private var ids: [String: String] = [:]
    /// `component` nodes seen, checked against `components` at the end.
    var componentUses: [(name: String, offset: Int, path: String)] = []
    /// `reload` actions seen, checked against `data` at the end.
    private var reloads: [(name: String, offset: Int, path: String)] = []
    /// Nodes decoded so far, to count what each component's template holds.
    private var nodeCount = 0
    /// Span styles decoded without a problem, by their source text.
    var spanStyles = SpanStyles()
    /// What a node's `class` names: the theme's styles, then (once read) the document's own.
    private(set) var styles: NamedStyles
    /// Whether children are decoded now or, in cold subtrees, when first drawn.
    var childDecoding = ChildDecoding.now

    /// When a container's children are decoded.
    enum ChildDecoding {
        /// With the container, always.
        case now
        /// When first asked for, if `ColdSubtree.holds` them.
        case whenCold
        /// When first asked for, if large: inside a deferred subtree, already found cold.
        case whenLarge
    }

    /// A decoder whose nodes' classes start from `theme` (a bundle's theme file).
    init(theme: NamedStyles = NamedStyles()) {
        styles = theme
    }

    static let topLevelFields = ["$schema", "format", "id", "title", "state", "data", "keys", "styles", "components", "onAppear", "body"]
    /// Fields every node may have, whatever its type.
    static let commonFields = ["type", "id", "class", "style", "visible", "autofocus"]

    // MARK: Document

    mutating func document(_ json: SourceJSON) -> ScreenDocument? {
        guard let members = json.members else {
            report("expected a screen document (a JSON object), got \(json.kindDescription)", at: json.offset)
            return nil
        }
        guard let format = json["format"] else {
            report("missing required field \"format\" (supported versions: \(Self.formatList))", at: json.offset)
            return nil
        }
        guard let version = format.integerValue, ScreenDocument.supportedFormats.contains(version) else {
            let shown = DiagnosticText.cut(format.plain.jsonText)
            inKey("format") { $0.report("unsupported format version \(shown); supported versions: \(Self.formatList)", at: format.offset) }
            return nil
        }
        checkFields(members, allowed: Self.topLevelFields, owner: "the screen")

        let id = requiredString(json, "id") ?? ""
        let title = json["title"].flatMap { value in inKey("title") { $0.plainString(value) } }
        var state = JSONValue.object(JSONObject())
        if let stateJSON = json["state"] {
            if stateJSON.members != nil {
                state = stateJSON.plain
            } else {
                inKey("state") { $0.report("expected an object, got \(stateJSON.kindDescription)", at: stateJSON.offset) }
            }
        }
        let data = json["data"].map { value in inKey("data") { $0.dataBlocks(value) } } ?? []
        let keys = json["keys"].map { value in inKey("keys") { $0.keyBindings(value) } } ?? []
        // Read before any node, so every `class` sees the document's own styles.
        if let stylesJSON = json["styles"] {
            styles = styles.overridden(by: inKey("styles") { $0.namedStyles(stylesJSON) })
        }
        var components: [String: Node] = [:]
        var expansion = ComponentExpansion()
        // Templates are decoded whole: the expansion counts their nodes.
        let childDecoding = self.childDecoding
        self.childDecoding = .now
        if let componentsJSON = json["components"] {
            inKey("components") { decoder in
                guard let members = componentsJSON.members else {
                    decoder.report("expected an object of named node templates, got \(componentsJSON.kindDescription)", at: componentsJSON.offset)
                    return
                }
                for member in members {
                    let (nodesBefore, usesBefore) = (decoder.nodeCount, decoder.componentUses.count)
                    components[member.key] = decoder.inKey(member.key) { $0.node(member.value) }
                    expansion.define(member.key, nodes: decoder.nodeCount - nodesBefore,
                                     uses: decoder.componentUses[usesBefore...].map(\.name))
                }
            }
        }
        self.childDecoding = childDecoding
        let onAppear = json["onAppear"].flatMap { value in inKey("onAppear") { $0.action(value) } }
        let body: Node
        if let bodyJSON = json["body"] {
            let usesBefore = componentUses.count
            body = inKey("body") { $0.node(bodyJSON) }
            // The body's own nodes do not count against the budget: only what components make.
            let views = expansion.views(nodes: 0, uses: componentUses[usesBefore...].map(\.name))
            if views > ScreenRenderer.maximumViews {
                inKey("body") { $0.report("""
                    the components used here expand to more than \(ScreenRenderer.maximumViews) views; \
                    views past that are not drawn (an error marker shows where they stop)
                    """, at: bodyJSON.offset, severity: .warning) }
            }
        } else {
            report("missing required field \"body\"", at: json.offset)
            body = Node.invalid("missing body", offset: json.offset)
        }
        for use in componentUses where components[use.name] == nil {
            let hint = Suggestion.hint(for: use.name, in: components.keys)
            diagnostics.append(Diagnostic(
                offset: use.offset, path: use.path,
                message: "unknown component \(DiagnosticText.quoted(use.name))\(hint); it must be defined in \"components\" or registered by a script or Swift",
                severity: .warning))
        }
        let dataNames = data.map(\.name)
        for reload in reloads where !dataNames.contains(reload.name) {
            let hint = Suggestion.hint(for: reload.name, in: dataNames)
            diagnostics.append(Diagnostic(offset: reload.offset, path: reload.path,
                                          message: "no data block named \(DiagnosticText.quoted(reload.name)) on this screen\(hint)"))
        }
        return ScreenDocument(id: id, title: title, state: state, data: data, keys: keys, components: components, onAppear: onAppear, body: body)
    }

    mutating func noteReload(of data: String, at offset: Int) {
        reloads.append((data, offset, path.description))
    }

    private static var formatList: String { ScreenDocument.supportedFormats.map(String.init).joined(separator: ", ") }

    // MARK: Nodes

    /// A node of any type; one that cannot be decoded becomes an `.invalid` marker.
    mutating func node(_ json: SourceJSON) -> Node {
        nodeCount += 1
        guard let members = json.members else {
            report("expected a node object, got \(json.kindDescription)", at: json.offset)
            return .invalid("not a node", offset: json.offset)
        }
        guard let typeJSON = json["type"] else {
            report("missing required field \"type\"", at: json.offset)
            return .invalid("node without a type", offset: json.offset)
        }
        guard let type = typeJSON.stringValue, let entry = WidgetCatalog.entries[type] else {
            let got = typeJSON.stringValue.map(DiagnosticText.quoted) ?? typeJSON.kindDescription
            let hint = typeJSON.stringValue.map { Suggestion.hint(for: $0, in: WidgetCatalog.typeNames) } ?? ""
            inKey("type") { $0.report("unknown node type \(got)\(hint)", at: typeJSON.offset) }
            return .invalid("unknown type \(got)", offset: json.offset)
        }
        let errorsBefore = diagnostics.count
        checkFields(members, allowed: entry.fields, owner: "a \"\(type)\" node")

        // `commonFields` but `type`, found in one walk over the members (the first of each).
        var idJSON, classJSON, styleJSON, visibleJSON, autofocusJSON: SourceJSON?
        for member in members {
            if member.hasKey("id") {
                idJSON = idJSON ?? member.value
            } else if member.hasKey("class") {
                classJSON = classJSON ?? member.value
            } else if member.hasKey("style") {
                styleJSON = styleJSON ?? member.value
            } else if member.hasKey("visible") {
                visibleJSON = visibleJSON ?? member.value
            } else if member.hasKey("autofocus") {
                autofocusJSON = autofocusJSON ?? member.value
            }
        }
        var id: String?
        if let idJSON, let written = inKey("id", { $0.plainString(idJSON) }) {
            if written.isEmpty || written.contains(where: \.isWhitespace) {
                inKey("id") { $0.report("expected an id without spaces, got \(DiagnosticText.quoted(written))", at: idJSON.offset) }
            } else if let first = ids[written] {
                inKey("id") { $0.report("duplicate id \(DiagnosticText.quoted(written)) (first used at \(first))", at: idJSON.offset) }
            } else {
                ids[written] = path.description
            }
            id = written
        }
        var unknownClasses: [Diagnostic] = []
        var style = classJSON.flatMap { classJSON in inKey("class") { [styles] in $0.classStyle(classJSON, from: styles, unknown: &unknownClasses) } } ?? NodeStyle()
        var boundStyle: [(field: String, value: PropertyValue)] = []
        if let styleJSON {
            inKey("style") { $0.style(styleJSON, into: &style, bound: &boundStyle) }
        }
        let visible = visibleJSON.flatMap { visibleJSON in inKey("visible") { $0.booleanProperty(visibleJSON) } }
        let autofocus = autofocusJSON.flatMap { flagJSON in inKey("autofocus") { $0.flag(flagJSON) } } ?? false
        let ownErrors = diagnostics.count
        guard let widget = entry.decode(json, &self) else {
            return .invalid(firstError(since: errorsBefore) ?? "invalid \(type)", offset: json.offset)
        }
        // A node whose own fields are broken draws as a marker; broken children mark themselves.
        if let message = firstError(since: errorsBefore), diagnostics[errorsBefore..<ownErrors].contains(where: { $0.severity == .error }) {
            return .invalid(message, offset: json.offset)
        }
        var node = Node(widget: widget, offset: json.offset)
        node.id = id
        node.style = style
        node.boundStyle = boundStyle
        node.visible = visible
        node.autofocus = autofocus
        node.settle()
        // Reported once the node stands: it draws without the classes it lacks.
        diagnostics += unknownClasses
        return node
    }

    private func firstError(since index: Int) -> String? {
        diagnostics[index...].first { $0.severity == .error }?.message
    }

    /// The array of nodes at `key`; a cold subtree is kept to be decoded when first drawn.
    mutating func children(_ json: SourceJSON, key: String = "children") -> NodeList {
        guard let value = json[key] else { return NodeList([]) }
        return inKey(key) { decoder in
            // Before reading the items, which parses an array the parser skimmed past.
            if value.kind == .array, decoder.defers(value) { return NodeList(deferring: value, single: false, decoder: decoder) }
            guard value.items != nil else {
                decoder.report("expected an array of nodes, got \(value.kindDescription)", at: value.offset)
                return NodeList([])
            }
            return NodeList(decoder.nodes(in: value))
        }
    }

    /// The one node at `key` (a box's `child`), kept like `children` when cold.
    mutating func child(_ json: SourceJSON, key: String) -> NodeList? {
        guard let value = json[key] else { return nil }
        return inKey(key) { decoder in
            decoder.defers(value) ? NodeList(deferring: value, single: true, decoder: decoder) : NodeList([decoder.node(value)])
        }
    }

    /// The nodes of the array `json`.
    mutating func nodes(in json: SourceJSON) -> [Node] {
        json.items!.enumerated().map { index, item in atIndex(index) { $0.node(item) } }
    }

    private func defers(_ json: SourceJSON) -> Bool {
        switch childDecoding {
        case .now: return false
        case .whenCold: return ColdSubtree.holds(json)
        case .whenLarge: return ColdSubtree.isLarge(json)
        }
    }
}
