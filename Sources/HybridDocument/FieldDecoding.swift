import HybridJSON

/// The field readers every part of a screen document uses (node props, actions, styles):
/// each checks the JSON kind, reports a located problem when it does not fit, and returns
/// `nil` then, so decoding goes on and collects every problem.
extension LocatingDecoder {
    /// The literal string member `key` of `object`, reported when missing.
    public mutating func requiredString(_ object: SourceJSON, _ key: String) -> String? {
        required(object, key) { $0.plainString($1) }
    }

    /// Member `key` of `json` decoded by `decode`; reported when absent, naming the node `type`.
    public mutating func required<T>(_ json: SourceJSON, _ key: String, type: String, _ decode: (inout Self, SourceJSON) -> T?) -> T? {
        guard let value = json[key] else {
            report("missing required field \"\(key)\" for a \"\(type)\" node", at: json.offset)
            return nil
        }
        return inKey(key) { decode(&$0, value) }
    }

    /// Whether `json` is a string that is exactly one `@{…}` (which may give any type).
    public static func isSingleExpression(_ json: SourceJSON) -> Bool {
        // Most strings are not expressions; looking at the bytes first spares building them.
        let opens = json.withStringUTF8 { $0.starts(with: "@{".utf8) } ?? false
        guard opens, let text = json.stringValue else { return false }
        return text.hasPrefix("@{") && text.hasSuffix("}")
    }

    /// A prop that must be of the JSON kinds `accepts` takes, or an expression giving one.
    public mutating func property(_ json: SourceJSON, expecting expected: String, accepts: (SourceJSON.Kind) -> Bool) -> PropertyValue? {
        if accepts(json.kind) || Self.isSingleExpression(json) { return bindable(json) }
        report("expected \(expected), got \(json.kindDescription)\(Self.bindingHint(for: json))", at: json.offset)
        return nil
    }

    /// `; did you mean "@{loading}"?` for a string that reads like the expression it should
    /// have been (a state path, a negation, a comparison) where a string is not accepted.
    static func bindingHint(for json: SourceJSON) -> String {
        guard let text = json.stringValue, !text.isEmpty, text.count <= 80, !text.contains("@{"),
              text.first.map({ $0.isLetter || $0 == "!" || $0 == "(" }) == true,
              text.unicodeScalars.allSatisfy({ expressionScalars.contains($0) }) else { return "" }
        return "; did you mean \"@{\(text)}\"?"
    }

    /// A string prop.
    public mutating func textProperty(_ json: SourceJSON) -> PropertyValue? {
        property(json, expecting: "a string") { $0 == .string }
    }

    /// A boolean prop.
    public mutating func booleanProperty(_ json: SourceJSON) -> PropertyValue? {
        property(json, expecting: "true, false or an expression") { $0 == .bool }
    }

    /// A number prop.
    public mutating func numberProperty(_ json: SourceJSON) -> PropertyValue? {
        property(json, expecting: "a number or an expression") { $0 == .integer || $0 == .number }
    }

    /// An array prop.
    public mutating func arrayProperty(_ json: SourceJSON) -> PropertyValue? {
        property(json, expecting: "an array or an expression") { $0 == .array }
    }

    /// A literal `true` or `false`.
    public mutating func flag(_ json: SourceJSON) -> Bool? {
        if let flag = json.boolValue { return flag }
        report("expected true or false, got \(json.kindDescription)", at: json.offset)
        return nil
    }
}

/// What a short expression over state paths is written with (`FieldDecoding.bindingHint`).
private let expressionScalars = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_. !=<>&|+-*/%()'".unicodeScalars)
