import HybridJSON

/// What happens on an event (`onPress`, `onChange`, a screen key…), as SPEC §2 defines.
public indirect enum Action: Sendable {
    /// Run the script handler with this name.
    case handler(String)
    /// Store a value at a state path.
    case set(path: String, value: PropertyValue)
    /// Call a native service, optionally storing its result at a state path.
    case call(service: String, params: PropertyValue?, result: String?)
    /// Open a screen by `app://` URL.
    case navigate(url: PropertyValue)
    /// Go back to the previous screen.
    case back
    /// Leave the app.
    case quit
    /// Run a script handler with arguments.
    case script(handler: String, args: PropertyValue?)
    /// Load a data block of the screen again (SPEC §7.4); with `nextPage`, its next page,
    /// appended.
    case reload(data: String, nextPage: Bool)
    /// Several actions, in order.
    case sequence([Action])
    /// An action object written with `"help"`: the words `keyhelp` shows for the key bound
    /// to it. Running it runs the action.
    case described(Action, help: String)

    /// The action's `help`, when its object has one; for a sequence, the first its actions
    /// have (an array is not an object, but the action objects in it may carry `help`).
    public var help: String? {
        switch self {
        case .described(_, let help): return help
        case .sequence(let actions): return actions.lazy.compactMap(\.help).first
        default: return nil
        }
    }

    /// The built-in actions an object names with `"action"`: the one list of them, with
    /// the fields each takes.
    public enum Kind: String, CaseIterable, Sendable {
        case set, call, navigate, back, quit, script, reload

        /// Fields that must be present.
        var required: [String] {
            switch self {
            case .set: ["path", "value"]
            case .call: ["service"]
            case .navigate: ["url"]
            case .back, .quit: []
            case .script: ["handler"]
            case .reload: ["data"]
            }
        }

        /// Fields that may be present.
        var optional: [String] {
            switch self {
            case .call: ["params", "result"]
            case .script: ["args"]
            case .reload: ["page"]
            case .set, .navigate, .back, .quit: []
            }
        }

        /// Every kind, quoted, for messages.
        static let list = allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    }
}

/// A decoder of actions: it is told of every `reload` so it can check, once the whole
/// document is read, that the data block it names exists.
public protocol ActionDecoder: LocatingDecoder {
    /// Notes a `reload` of the data block `data`, written at `offset` (the current path).
    mutating func noteReload(of data: String, at offset: Int)
}

extension ActionDecoder {
    /// An action: a handler name, a built-in action object, or an array of actions.
    public mutating func action(_ json: SourceJSON) -> Action? {
        switch json.kind {
        case .string:
            let name = json.stringValue!
            guard KeyName.isIdentifier(name) else {
                report("expected a handler name (letters, digits, \"_\", \".\", \"-\"), got \(DiagnosticText.quoted(name))", at: json.offset)
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
            return builtInAction(json)
        default:
            report("expected an action: a handler name, an object with \"action\", or an array of actions; got \(json.kindDescription)", at: json.offset)
            return nil
        }
    }

    private mutating func builtInAction(_ json: SourceJSON) -> Action? {
        guard let kindJSON = json["action"] else {
            report("missing required field \"action\" (one of \(Action.Kind.list))", at: json.offset)
            return nil
        }
        guard let name = kindJSON.stringValue, let kind = Action.Kind(rawValue: name) else {
            let got = kindJSON.stringValue.map(DiagnosticText.quoted) ?? kindJSON.kindDescription
            let hint = kindJSON.stringValue.map { Suggestion.hint(for: $0, in: Action.Kind.allCases.map(\.rawValue)) } ?? ""
            inKey("action") { $0.report("unknown action \(got); expected one of \(Action.Kind.list)\(hint)", at: kindJSON.offset) }
            return nil
        }
        checkFields(json.members!, allowed: ["action", "help"] + kind.required + kind.optional, owner: "a \"\(name)\" action")
        guard let action = builtInAction(json, kind: kind) else { return nil }
        guard let helpJSON = json["help"], let help = inKey("help", { $0.plainString(helpJSON) }) else { return action }
        return .described(action, help: help)
    }

    private mutating func builtInAction(_ json: SourceJSON, kind: Action.Kind) -> Action? {
        let name = kind.rawValue
        var complete = true
        for field in kind.required where json[field] == nil {
            report("missing required field \"\(field)\" for a \"\(name)\" action", at: json.offset)
            complete = false
        }
        guard complete else { return nil }
        func value(_ key: String, _ decoder: inout Self) -> PropertyValue? {
            json[key].map { member in decoder.inKey(key) { $0.bindable(member) } }
        }
        switch kind {
        case .set:
            guard let path = inKey("path", { $0.plainString(json["path"]!) }) else { return nil }
            // State deeper than documents may nest could not be walked safely.
            guard path.utf8.count < JSONParser.maximumDepth || path.split(separator: ".").count <= JSONParser.maximumDepth else {
                inKey("path") { $0.report("a state path of more than \(JSONParser.maximumDepth) parts", at: json["path"]!.offset) }
                return nil
            }
            return .set(path: path, value: value("value", &self)!)
        case .call:
            guard let service = inKey("service", { $0.plainString(json["service"]!) }) else { return nil }
            if !ServiceName.isValid(service) {
                inKey("service") { $0.report("expected a service name like \"cart.add\", got \(DiagnosticText.quoted(service))", at: json["service"]!.offset) }
                return nil
            }
            let result = json["result"].flatMap { member in inKey("result") { $0.plainString(member) } }
            return .call(service: service, params: value("params", &self), result: result)
        case .navigate:
            guard let url = inKey("url", { $0.textProperty(json["url"]!) }) else { return nil }
            return .navigate(url: url)
        case .back:
            return .back
        case .quit:
            return .quit
        case .script:
            guard let handler = inKey("handler", { $0.plainString(json["handler"]!) }) else { return nil }
            return .script(handler: handler, args: value("args", &self))
        case .reload:
            guard let data = inKey("data", { $0.plainString(json["data"]!) }) else { return nil }
            inKey("data") { $0.noteReload(of: data, at: json["data"]!.offset) }
            guard let page = json["page"] else { return .reload(data: data, nextPage: false) }
            guard page.stringValue == "next" else {
                inKey("page") { $0.report("expected \"next\" (the next page, appended), got \(DiagnosticText.cut(page.plain.jsonText))", at: page.offset) }
                return nil
            }
            return .reload(data: data, nextPage: true)
        }
    }

    /// Screen `keys`: key names (checked and normalized) to actions, in document order.
    public mutating func keyBindings(_ json: SourceJSON) -> [(key: String, action: Action)] {
        guard let members = json.members else {
            report("expected an object mapping key names to actions, got \(json.kindDescription)", at: json.offset)
            return []
        }
        var bindings: [(key: String, action: Action)] = []
        for member in members {
            inKey(member.key) { decoder in
                guard let key = KeyName.normalize(member.key), key == member.key else {
                    let hint = KeyName.normalize(member.key).map { "; did you mean \"\($0)\"?" } ?? ""
                    decoder.report("unknown key name \(DiagnosticText.quoted(member.key)); expected a character or a key like \"enter\", \"ctrl+r\", \"shift+tab\", \"f5\"\(hint)", at: member.keyOffset)
                    return
                }
                if let action = decoder.action(member.value) { bindings.append((key, action)) }
            }
        }
        return bindings
    }
}
