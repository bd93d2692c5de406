import HybridExpressions
import HybridJSON

/// Walks a parsed document, building typed values and collecting every problem with its path.
struct DocumentDecoder: LocatingDecoder {
    var diagnostics: [Diagnostic] = []
    var path = JSONPath()
    /// Ids seen so far, with the path that used each first.
    private var ids: [String: String] = [:]
    /// `component` nodes seen, checked against `components` at the end.
    private var componentUses: [(name: String, offset: Int, path: String)] = []
    /// Span styles decoded without a problem, by their source text: a long text repeats a
    /// handful of them thousands of times, and the same text always decodes the same.
    private var spanStyles: [SourceKey: TextStyle] = [:]

    /// A value's source text as a dictionary key, hashed as one run of bytes rather than byte
    /// by byte.
    private struct SourceKey: Hashable {
        var text: ArraySlice<UInt8>

        func hash(into hasher: inout Hasher) {
            text.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    static let topLevelFields = ["$schema", "format", "id", "title", "state", "keys", "components", "onAppear", "body"]
    static let commonFields = ["type", "id", "style", "visible", "autofocus"]
    static let fieldsByType: [String: [String]] = [
        "column": ["children"], "row": ["children"], "stack": ["children"], "scroll": ["children"],
        "box": ["child", "children", "title"],
        "text": ["text", "spans"],
        "button": ["label", "onPress"],
        "input": ["value", "placeholder", "secure", "onChange", "onSubmit"],
        "checkbox": ["label", "checked", "onChange"],
        "select": ["options", "selected", "onChange"],
        "list": ["items", "template", "onSelect"],
        "table": ["columns", "rows", "onSelect"],
        "tabs": ["tabs", "selected"],
        "progress": ["value", "label"],
        "spinner": ["label"],
        "divider": [], "spacer": [],
        "component": ["name", "props"],
    ]
    static let nodeTypes = fieldsByType.keys.sorted()
    /// Every field a node of each type may have (common ones first), built once.
    static let allowedByType = fieldsByType.mapValues { commonFields + $0 }
    static let spanFields = ["text", "style"]


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
            let shown = format.plain.jsonText
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
        let keys = json["keys"].map { value in inKey("keys") { $0.keyBindings(value) } } ?? []
        var components: [String: Node] = [:]
        if let componentsJSON = json["components"] {
            inKey("components") { decoder in
                guard let members = componentsJSON.members else {
                    decoder.report("expected an object of named node templates, got \(componentsJSON.kindDescription)", at: componentsJSON.offset)
                    return
                }
                for member in members {
                    components[member.key] = decoder.inKey(member.key) { $0.node(member.value) }
                }
            }
        }
        let onAppear = json["onAppear"].flatMap { value in inKey("onAppear") { $0.action(value) } }
        let body: Node
        if let bodyJSON = json["body"] {
            body = inKey("body") { $0.node(bodyJSON) }
        } else {
            report("missing required field \"body\"", at: json.offset)
            body = Node.invalid("missing body", offset: json.offset)
        }
        for use in componentUses where components[use.name] == nil {
            let hint = Suggestion.hint(for: use.name, in: components.keys)
            diagnostics.append(Diagnostic(
                offset: use.offset, path: use.path,
                message: "unknown component \"\(use.name)\"\(hint); it must be defined in \"components\" or registered by a script or Swift",
                severity: .warning))
        }
        return ScreenDocument(id: id, title: title, state: state, keys: keys, components: components, onAppear: onAppear, body: body)
    }

    private static var formatList: String { ScreenDocument.supportedFormats.map(String.init).joined(separator: ", ") }

    private mutating func keyBindings(_ json: SourceJSON) -> [(key: String, action: Action)] {
        guard let members = json.members else {
            report("expected an object mapping key names to actions, got \(json.kindDescription)", at: json.offset)
            return []
        }
        var bindings: [(key: String, action: Action)] = []
        for member in members {
            inKey(member.key) { decoder in
                guard let key = KeyName.normalize(member.key), key == member.key else {
                    let hint = KeyName.normalize(member.key).map { "; did you mean \"\($0)\"?" } ?? ""
                    decoder.report("unknown key name \"\(member.key)\"; expected a character or a key like \"enter\", \"ctrl+r\", \"shift+tab\", \"f5\"\(hint)", at: member.keyOffset)
                    return
                }
                if let action = decoder.action(member.value) { bindings.append((key, action)) }
            }
        }
        return bindings
    }

    // MARK: Scalars

    private mutating func plainString(_ json: SourceJSON) -> String? {
        if let text = json.stringValue { return text }
        report("expected a string, got \(json.kindDescription)", at: json.offset)
        return nil
    }

    private mutating func requiredString(_ object: SourceJSON, _ key: String) -> String? {
        guard let value = object[key] else {
            report("missing required field \"\(key)\"", at: object.offset)
            return nil
        }
        return inKey(key) { $0.plainString(value) }
    }

    private static func number(_ json: JSONValue) -> Double? {
        switch json {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    private static func isSingleExpression(_ json: SourceJSON) -> Bool {
        // Most strings are not expressions; looking at the bytes first spares building them.
        let opens = json.withStringUTF8 { $0.starts(with: "@{".utf8) } ?? false
        guard opens, let text = json.stringValue else { return false }
        return text.hasPrefix("@{") && text.hasSuffix("}")
    }

    /// A prop that must be of the given JSON kinds, or an expression giving one.
    private mutating func property(_ json: SourceJSON, expecting expected: String, accepts: (SourceJSON.Kind) -> Bool) -> PropertyValue? {
        if accepts(json.kind) || Self.isSingleExpression(json) {
            return PropertyValue.parse(json, path: &path, diagnostics: &diagnostics)
        }
        report("expected \(expected), got \(json.kindDescription)", at: json.offset)
        return nil
    }

    private mutating func textProperty(_ json: SourceJSON) -> PropertyValue? {
        property(json, expecting: "a string") { $0 == .string }
    }

    private mutating func booleanProperty(_ json: SourceJSON) -> PropertyValue? {
        property(json, expecting: "true, false or an expression") { $0 == .bool }
    }

    private mutating func numberProperty(_ json: SourceJSON) -> PropertyValue? {
        property(json, expecting: "a number or an expression") { $0 == .integer || $0 == .number }
    }

    private mutating func arrayProperty(_ json: SourceJSON) -> PropertyValue? {
        property(json, expecting: "an array or an expression") { $0 == .array }
    }

    // MARK: Style

    private mutating func style(_ json: SourceJSON, into style: inout NodeStyle, bound: inout [(field: String, value: PropertyValue)]) {
        guard let members = json.members else {
            report("expected a style object, got \(json.kindDescription)", at: json.offset)
            return
        }
        for index in members.indices {
            // The path is extended only to report or parse: most members need neither.
            let member = members[index]
            let key = member.key
            if members.hasDuplicateKey(at: index) {
                inKey(key) { $0.report("duplicate field \"\(key)\"", at: member.keyOffset) }
                continue
            }
            guard let field = NodeStyle.Field(name: key) else {
                inKey(key) { $0.report("unknown field \"\(key)\"" + Suggestion.hint(for: key, in: NodeStyle.fieldNames), at: member.keyOffset) }
                continue
            }
            let value = member.value
            if Self.isSingleExpression(value) {
                bound.append((key, inKey(key) { PropertyValue.parse(value, path: &$0.path, diagnostics: &$0.diagnostics) }))
            } else if let message = style.set(field, to: value.plain) {
                inKey(key) { $0.report(message, at: value.offset) }
            }
        }
    }

    // MARK: Actions

    static let actionFields: [String: (required: [String], optional: [String])] = [
        "set": (["path", "value"], []),
        "call": (["service"], ["params", "result"]),
        "navigate": (["url"], []),
        "back": ([], []),
        "quit": ([], []),
        "script": (["handler"], ["args"]),
    ]

    mutating func action(_ json: SourceJSON) -> Action? {
        switch json.kind {
        case .string:
            let name = json.stringValue!
            guard KeyName.isIdentifier(name) else {
                report("expected a handler name (letters, digits, \"_\", \".\", \"-\"), got \"\(name)\"", at: json.offset)
                return nil
            }
            return .handler(name)
        case .array:
            var actions: [Action] = []
            for (index, item) in json.items!.enumerated() {
                if let action = atIndex(index, { $0.action(item) }) { actions.append(action) }
            }
            return .sequence(actions)
        case .object:
            guard let kindJSON = json["action"] else {
                report("missing required field \"action\" (one of \(Self.actionKinds))", at: json.offset)
                return nil
            }
            guard let kind = kindJSON.stringValue, let fields = Self.actionFields[kind] else {
                let got = kindJSON.stringValue.map { "\"\($0)\"" } ?? kindJSON.kindDescription
                let hint = kindJSON.stringValue.map { Suggestion.hint(for: $0, in: Self.actionFields.keys) } ?? ""
                inKey("action") { $0.report("unknown action \(got); expected one of \(Self.actionKinds)\(hint)", at: kindJSON.offset) }
                return nil
            }
            checkFields(json.members!, allowed: ["action"] + fields.required + fields.optional, owner: "a \"\(kind)\" action")
            var complete = true
            for field in fields.required where json[field] == nil {
                report("missing required field \"\(field)\" for a \"\(kind)\" action", at: json.offset)
                complete = false
            }
            guard complete else { return nil }
            func value(_ key: String, _ decoder: inout DocumentDecoder) -> PropertyValue? {
                json[key].map { member in decoder.inKey(key) { PropertyValue.parse(member, path: &$0.path, diagnostics: &$0.diagnostics) } }
            }
            switch kind {
            case "set":
                guard let path = inKey("path", { $0.plainString(json["path"]!) }) else { return nil }
                return .set(path: path, value: value("value", &self)!)
            case "call":
                guard let service = inKey("service", { $0.plainString(json["service"]!) }) else { return nil }
                if !ServiceName.isValid(service) {
                    inKey("service") { $0.report("expected a service name like \"cart.add\", got \"\(service)\"", at: json["service"]!.offset) }
                    return nil
                }
                let result = json["result"].flatMap { member in inKey("result") { $0.plainString(member) } }
                return .call(service: service, params: value("params", &self), result: result)
            case "navigate":
                guard let url = inKey("url", { $0.textProperty(json["url"]!) }) else { return nil }
                return .navigate(url: url)
            case "back":
                return .back
            case "quit":
                return .quit
            default:
                guard let handler = inKey("handler", { $0.plainString(json["handler"]!) }) else { return nil }
                return .script(handler: handler, args: value("args", &self))
            }
        default:
            report("expected an action: a handler name, an object with \"action\", or an array of actions; got \(json.kindDescription)", at: json.offset)
            return nil
        }
    }

    private static var actionKinds: String {
        ["set", "call", "navigate", "back", "quit", "script"].map { "\"\($0)\"" }.joined(separator: ", ")
    }

    // MARK: Nodes

    mutating func node(_ json: SourceJSON) -> Node {
        guard let members = json.members else {
            report("expected a node object, got \(json.kindDescription)", at: json.offset)
            return .invalid("not a node", offset: json.offset)
        }
        guard let typeJSON = json["type"] else {
            report("missing required field \"type\"", at: json.offset)
            return .invalid("node without a type", offset: json.offset)
        }
        guard let type = typeJSON.stringValue, let allowed = Self.allowedByType[type] else {
            let got = typeJSON.stringValue.map { "\"\($0)\"" } ?? typeJSON.kindDescription
            let hint = typeJSON.stringValue.map { Suggestion.hint(for: $0, in: Self.nodeTypes) } ?? ""
            inKey("type") { $0.report("unknown node type \(got)\(hint)", at: typeJSON.offset) }
            return .invalid("unknown type \(got)", offset: json.offset)
        }
        let errorsBefore = diagnostics.count
        checkFields(members, allowed: allowed, owner: "a \"\(type)\" node")

        var node = Node(id: nil, kind: .spacer, style: NodeStyle(), boundStyle: [], visible: nil,
                        autofocus: false, offset: json.offset, isStatic: true)
        if let idJSON = json["id"], let id = inKey("id", { $0.plainString(idJSON) }) {
            if id.isEmpty || id.contains(where: \.isWhitespace) {
                inKey("id") { $0.report("expected an id without spaces, got \"\(id)\"", at: idJSON.offset) }
            } else if let first = ids[id] {
                inKey("id") { $0.report("duplicate id \"\(id)\" (first used at \(first))", at: idJSON.offset) }
            } else {
                ids[id] = path.description
            }
            node.id = id
        }
        if let styleJSON = json["style"] {
            inKey("style") { $0.style(styleJSON, into: &node.style, bound: &node.boundStyle) }
        }
        if let visibleJSON = json["visible"] {
            node.visible = inKey("visible") { $0.booleanProperty(visibleJSON) }
        }
        if let autofocusJSON = json["autofocus"] {
            if let flag = autofocusJSON.boolValue {
                node.autofocus = flag
            } else {
                inKey("autofocus") { $0.report("expected true or false, got \(autofocusJSON.kindDescription)", at: autofocusJSON.offset) }
            }
        }
        let ownErrors = diagnostics.count
        guard let kind = props(of: type, in: json) else {
            return .invalid(firstError(since: errorsBefore) ?? "invalid \(type)", offset: json.offset)
        }
        node.kind = kind
        // A node whose own fields are broken draws as a marker; broken children mark themselves.
        if let message = firstError(since: errorsBefore), diagnostics[errorsBefore..<ownErrors].contains(where: { $0.severity == .error }) {
            return .invalid(message, offset: json.offset)
        }
        node.isStatic = node.computeIsStatic()
        return node
    }

    private func firstError(since index: Int) -> String? {
        diagnostics[index...].first { $0.severity == .error }?.message
    }

    private mutating func children(_ json: SourceJSON, key: String = "children") -> [Node] {
        guard let value = json[key] else { return [] }
        return inKey(key) { decoder in
            guard let items = value.items else {
                decoder.report("expected an array of nodes, got \(value.kindDescription)", at: value.offset)
                return []
            }
            return items.enumerated().map { index, item in decoder.atIndex(index) { $0.node(item) } }
        }
    }

    private mutating func optional<T>(_ json: SourceJSON, _ key: String, _ decode: (inout DocumentDecoder, SourceJSON) -> T?) -> T? {
        guard let value = json[key] else { return nil }
        return inKey(key) { decode(&$0, value) }
    }

    private mutating func required<T>(_ json: SourceJSON, _ key: String, type: String, _ decode: (inout DocumentDecoder, SourceJSON) -> T?) -> T? {
        guard let value = json[key] else {
            report("missing required field \"\(key)\" for a \"\(type)\" node", at: json.offset)
            return nil
        }
        return inKey(key) { decode(&$0, value) }
    }

    private mutating func props(of type: String, in json: SourceJSON) -> Node.Kind? {
        let text: (inout DocumentDecoder, SourceJSON) -> PropertyValue? = { $0.textProperty($1) }
        let boolean: (inout DocumentDecoder, SourceJSON) -> PropertyValue? = { $0.booleanProperty($1) }
        let action: (inout DocumentDecoder, SourceJSON) -> Action? = { $0.action($1) }
        switch type {
        case "column": return .column(children(json))
        case "row": return .row(children(json))
        case "stack": return .stack(children(json))
        case "scroll": return .scroll(children(json))
        case "box":
            if json["child"] != nil && json["children"] != nil {
                report("a box takes \"child\" or \"children\", not both", at: json.offset)
            }
            let content = json["child"].map { child in [inKey("child") { $0.node(child) }] } ?? children(json)
            return .box(title: optional(json, "title", text), children: content)
        case "text":
            let textValue = optional(json, "text") { decoder, value in
                decoder.property(value, expecting: "a string, number or boolean") {
                    [.string, .integer, .number, .bool].contains($0)
                }
            }
            let spans = optional(json, "spans") { $0.spans($1) } ?? []
            if json["text"] == nil && json["spans"] == nil {
                report("a \"text\" node needs \"text\" or \"spans\"", at: json.offset)
                return nil
            }
            return .text(text: textValue, spans: spans)
        case "button":
            guard let label = required(json, "label", type: type, text) else { return nil }
            return .button(label: label, onPress: optional(json, "onPress", action))
        case "input":
            return .input(value: optional(json, "value", text), placeholder: optional(json, "placeholder", text),
                          secure: optional(json, "secure", boolean), onChange: optional(json, "onChange", action),
                          onSubmit: optional(json, "onSubmit", action))
        case "checkbox":
            return .checkbox(label: optional(json, "label", text), checked: optional(json, "checked", boolean),
                             onChange: optional(json, "onChange", action))
        case "select":
            guard let options = required(json, "options", type: type, { $0.options($1) }) else { return nil }
            let selected = optional(json, "selected") { decoder, value in
                decoder.property(value, expecting: "a string, an index or an expression") { $0 == .string || $0 == .integer }
            }
            return .select(options: options, selected: selected, onChange: optional(json, "onChange", action))
        case "list":
            let items = required(json, "items", type: type) { $0.arrayProperty($1) }
            let template = required(json, "template", type: type) { $0.node($1) }
            guard let items, let template else { return nil }
            return .list(items: items, template: template, onSelect: optional(json, "onSelect", action))
        case "table":
            guard let columns = required(json, "columns", type: type, { $0.columns($1) }) else { return nil }
            return .table(columns: columns, rows: optional(json, "rows") { $0.arrayProperty($1) },
                          onSelect: optional(json, "onSelect", action))
        case "tabs":
            guard let tabs = required(json, "tabs", type: type, { $0.tabs($1) }) else { return nil }
            let selected = optional(json, "selected") { decoder, value in
                decoder.property(value, expecting: "a tab index or an expression") { $0 == .integer }
            }
            return .tabs(tabs: tabs, selected: selected)
        case "progress":
            guard let value = required(json, "value", type: type, { $0.numberProperty($1) }) else { return nil }
            if let fraction = value.constantValue.flatMap(Self.number), !(0...1).contains(fraction) {
                inKey("value") { $0.report("expected a number from 0 to 1, got \(value.constantValue!.jsonText)", at: json["value"]!.offset) }
            }
            return .progress(value: value, label: optional(json, "label", text))
        case "spinner":
            return .spinner(label: optional(json, "label", text))
        case "divider":
            return .divider
        case "spacer":
            return .spacer
        default:
            guard let name = required(json, "name", type: type, { $0.plainString($1) }) else { return nil }
            componentUses.append((name, json["name"]!.offset, path.description + ".name"))
            let props = optional(json, "props") { decoder, value -> PropertyValue? in
                guard value.members != nil || Self.isSingleExpression(value) else {
                    decoder.report("expected an object of props or an expression, got \(value.kindDescription)", at: value.offset)
                    return nil
                }
                return PropertyValue.parse(value, path: &decoder.path, diagnostics: &decoder.diagnostics)
            }
            return .component(name: name, props: props)
        }
    }

    private mutating func spans(_ json: SourceJSON) -> [Span]? {
        guard let items = json.items else {
            report("expected an array of spans, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        var spans: [Span] = []
        spans.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            atIndex(index) { decoder in
                guard let members = item.members else {
                    decoder.report("expected a span object {\"text\", \"style\"}, got \(item.kindDescription)", at: item.offset)
                    return
                }
                decoder.checkFields(members, allowed: Self.spanFields, owner: "a span")
                guard let text = decoder.required(item, "text", type: "span", { $0.textProperty($1) }) else { return }
                guard let styleJSON = item["style"] else {
                    spans.append(Span(text: text, style: TextStyle()))
                    return
                }
                spans.append(Span(text: text, style: decoder.spanStyle(styleJSON, in: item)))
            }
        }
        return spans
    }

    /// The style of the span `item`, decoded once for each distinct text.
    private mutating func spanStyle(_ json: SourceJSON, in item: SourceJSON) -> TextStyle {
        let source = SourceKey(text: json.source)
        if let known = spanStyles[source] { return known }
        let problemsBefore = diagnostics.count
        var style = NodeStyle()
        var bound: [(field: String, value: PropertyValue)] = []
        inKey("style") { $0.style(json, into: &style, bound: &bound) }
        if !bound.isEmpty {
            report("span styles cannot be bound to expressions; bind the text node's style", at: item.offset)
        }
        // A style with problems is decoded again wherever it appears, so each is reported.
        if diagnostics.count == problemsBefore { spanStyles[source] = style.textStyle }
        return style.textStyle
    }

    private mutating func options(_ json: SourceJSON) -> PropertyValue? {
        if Self.isSingleExpression(json) { return PropertyValue.parse(json, path: &path, diagnostics: &diagnostics) }
        guard let items = json.items else {
            report("expected an array of options or an expression, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        for (index, item) in items.enumerated() {
            atIndex(index) { decoder in
                switch item.kind {
                case .string: break
                case .object:
                    decoder.checkFields(item.members!, allowed: ["label", "value"], owner: "an option")
                    for field in ["label", "value"] where item[field] == nil {
                        decoder.report("missing required field \"\(field)\" for an option", at: item.offset)
                    }
                default:
                    decoder.report("expected an option: a string or {\"label\", \"value\"}, got \(item.kindDescription)", at: item.offset)
                }
            }
        }
        return PropertyValue.parse(json, path: &path, diagnostics: &diagnostics)
    }

    private mutating func columns(_ json: SourceJSON) -> [TableColumn]? {
        guard let items = json.items else {
            report("expected an array of columns, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        if items.isEmpty { report("a table needs at least one column", at: json.offset) }
        var columns: [TableColumn] = []
        for (index, item) in items.enumerated() {
            atIndex(index) { decoder in
                switch item.kind {
                case .string:
                    columns.append(TableColumn(title: item.stringValue!, width: nil, align: .left))
                case .object:
                    decoder.checkFields(item.members!, allowed: ["title", "width", "align"], owner: "a column")
                    guard let title = decoder.requiredString(item, "title") else { return }
                    var column = TableColumn(title: title, width: nil, align: .left)
                    if let width = item["width"] {
                        do throws(NodeStyle.Mismatch) {
                            column.width = try NodeStyle.dimension(width.plain)
                        } catch {
                            decoder.inKey("width") { $0.report(error.message, at: width.offset) }
                        }
                    }
                    if let align = item["align"] {
                        do throws(NodeStyle.Mismatch) {
                            column.align = try NodeStyle.keyword(align.plain)
                        } catch {
                            decoder.inKey("align") { $0.report(error.message, at: align.offset) }
                        }
                    }
                    columns.append(column)
                default:
                    decoder.report("expected a column: a title string or {\"title\", \"width\", \"align\"}, got \(item.kindDescription)", at: item.offset)
                }
            }
        }
        return columns
    }

    private mutating func tabs(_ json: SourceJSON) -> [Tab]? {
        guard let items = json.items else {
            report("expected an array of tabs, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        if items.isEmpty { report("\"tabs\" needs at least one tab", at: json.offset) }
        var tabs: [Tab] = []
        for (index, item) in items.enumerated() {
            atIndex(index) { decoder in
                guard let members = item.members else {
                    decoder.report("expected a tab {\"title\", \"body\"}, got \(item.kindDescription)", at: item.offset)
                    return
                }
                decoder.checkFields(members, allowed: ["title", "body"], owner: "a tab")
                let title = decoder.required(item, "title", type: "tab") { $0.textProperty($1) }
                let body = decoder.required(item, "body", type: "tab") { $0.node($1) }
                if let title, let body { tabs.append(Tab(title: title, body: body)) }
            }
        }
        return tabs
    }
}

extension Node {
    /// A node standing for one that could not be decoded.
    static func invalid(_ message: String, offset: Int) -> Node {
        Node(id: nil, kind: .invalid(message: message), style: NodeStyle(), boundStyle: [], visible: nil,
             autofocus: false, offset: offset, isStatic: true)
    }

    func computeIsStatic() -> Bool {
        guard boundStyle.isEmpty, visible?.isConstant ?? true else { return false }
        func constant(_ values: PropertyValue?...) -> Bool { values.allSatisfy { $0?.isConstant ?? true } }
        switch kind {
        case .column(let nodes), .row(let nodes), .stack(let nodes):
            return nodes.allSatisfy(\.isStatic)
        case .scroll: return false
        case .box(let title, let nodes): return constant(title) && nodes.allSatisfy(\.isStatic)
        case .text(let text, let spans): return constant(text) && spans.allSatisfy(\.text.isConstant)
        // What the user can focus changes look with focus and selection, and a spinner turns.
        case .button, .input, .checkbox, .select, .table, .tabs, .spinner: return false
        case .progress(let value, let label): return constant(value, label)
        case .divider, .spacer, .invalid: return true
        case .list, .component: return false
        }
    }
}
