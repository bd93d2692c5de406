/// What every decoder of a JSON file shares (screens, manifests): it walks the value keeping
/// the JSON path, and collects every problem with its offset and path instead of stopping.
public protocol LocatingDecoder {
    /// The problems found so far.
    var diagnostics: [Diagnostic] { get set }
    /// Where the walk is.
    var path: JSONPath { get set }
}

extension LocatingDecoder {
    /// Records a problem at `offset`, located at the current path.
    public mutating func report(_ message: String, at offset: Int, severity: Diagnostic.Severity = .error) {
        diagnostics.append(Diagnostic(offset: offset, path: path.description, message: message, severity: severity))
    }

    /// Runs `body` with the path extended by an object member.
    public mutating func inKey<T>(_ key: String, _ body: (inout Self) -> T) -> T {
        path.push(.key(key))
        defer { path.pop() }
        return body(&self)
    }

    /// Runs `body` with the path extended by an array item.
    public mutating func atIndex<T>(_ index: Int, _ body: (inout Self) -> T) -> T {
        path.push(.index(index))
        defer { path.pop() }
        return body(&self)
    }

    /// A string written as a literal; anything else is reported.
    public mutating func plainString(_ json: SourceJSON) -> String? {
        if let text = json.stringValue { return text }
        report("expected a string, got \(json.kindDescription)", at: json.offset)
        return nil
    }

    /// Member `key` of `object` decoded by `decode` under its key; reported at the object when
    /// missing.
    public mutating func required<T>(_ object: SourceJSON, _ key: String, _ decode: (inout Self, SourceJSON) -> T?) -> T? {
        guard let value = object[key] else {
            report("missing required field \(DiagnosticText.quoted(key))", at: object.offset)
            return nil
        }
        return inKey(key) { decode(&$0, value) }
    }

    /// Member `key` of `json` decoded by `decode` under its key, or `nil` when absent.
    public mutating func optional<T>(_ json: SourceJSON, _ key: String, _ decode: (inout Self, SourceJSON) -> T?) -> T? {
        guard let value = json[key] else { return nil }
        return inKey(key) { decode(&$0, value) }
    }

    /// `checkFields` for names kept as bytes, which most objects' keys are checked against
    /// without building a string.
    public mutating func checkFields(_ members: SourceJSON.Members, allowed: FieldNames, owner: @autoclosure () -> String) {
        guard !members.areAllNamed(in: allowed) else { return }
        checkFields(members, allowed: allowed.names, owner: owner())
    }

    /// Reports members not in `allowed` (with a did-you-mean) and repeated keys. `owner`
    /// names the object in messages; it is built only when one is reported.
    public mutating func checkFields(_ members: SourceJSON.Members, allowed: [String], owner: @autoclosure () -> String) {
        for (member, isDuplicate) in members.unexpected(allowing: allowed) {
            if isDuplicate {
                inKey(member.key) { $0.report("duplicate field \(DiagnosticText.quoted(member.key))", at: member.keyOffset) }
            } else {
                let hint = Suggestion.hint(for: member.key, in: allowed)
                inKey(member.key) { $0.report("unknown field \(DiagnosticText.quoted(member.key)) in \(owner())\(hint)", at: member.keyOffset) }
            }
        }
    }
}
