import HybridJSON

/// Named styles (SPEC §2): a document's `"styles"` or a bundle's theme file, both
/// `{"NAME": {…style…}}`. A node's `"class": "NAME OTHER"` applies them in order before its
/// own `style`.
public struct NamedStyles: Sendable, Equatable {
    /// The styles by name.
    public private(set) var styles: [String: NodeStyle]
    /// False for a theme that could not be read: a class it may have named is not reported
    /// unknown on every screen, since the theme's own problem says what is wrong.
    public private(set) var knowsEveryName = true

    /// The styles given (none by default).
    public init(_ styles: [String: NodeStyle] = [:]) {
        self.styles = styles
    }

    /// The styles of a theme that could not be read: none, and no class reported unknown.
    public static let unread: NamedStyles = {
        var styles = NamedStyles()
        styles.knowsEveryName = false
        return styles
    }()

    /// The style called `name`, if there is one.
    public subscript(name: String) -> NodeStyle? { styles[name] }

    /// Every name, sorted, for did-you-mean hints and messages.
    public var names: [String] { styles.keys.sorted() }

    /// These styles with `own`'s replacing those of the same name: a document's own style of a
    /// name wins over the theme's, whole (not field by field, so it reads as written).
    public func overridden(by own: NamedStyles) -> NamedStyles {
        var merged = NamedStyles(styles.merging(own.styles) { _, mine in mine })
        merged.knowsEveryName = knowsEveryName
        return merged
    }

    /// Whether `name` can name a style: a letter or `_`, then letters, digits, `_` or `-`
    /// (a class list is split at spaces, so a name holds none).
    static func isName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }
}

extension LocatingDecoder {
    /// Named styles written as `{"NAME": {…style…}}`; a theme file may name its schema in
    /// `"$schema"` (`allowingSchema`). A style with problems keeps the fields that fit. Their
    /// values are literal: a named style is shared by screens with different state.
    public mutating func namedStyles(_ json: SourceJSON, allowingSchema: Bool = false) -> NamedStyles {
        guard let members = json.members else {
            report("expected an object of named styles, {\"NAME\": {…style…}}; got \(json.kindDescription)", at: json.offset)
            return NamedStyles()
        }
        let repeated = members.repeatedKeys()
        var styles: [String: NodeStyle] = [:]
        for index in members.indices {
            let member = members[index]
            let name = member.key
            if allowingSchema, name == "$schema" {
                _ = inKey(name) { $0.plainString(member.value) }
                continue
            }
            if repeated.contains(index) {
                inKey(name) { $0.report("duplicate style \(DiagnosticText.quoted(name))", at: member.keyOffset) }
                continue
            }
            guard NamedStyles.isName(name) else {
                inKey(name) { $0.report("expected a style name (a letter or \"_\", then letters, digits, \"_\" or \"-\"), got \(DiagnosticText.quoted(name))", at: member.keyOffset) }
                continue
            }
            var style = NodeStyle()
            var bound: [(field: String, value: PropertyValue)] = []
            inKey(name) { decoder in
                decoder.style(member.value, into: &style, bound: &bound)
                for field in bound {
                    let offset = member.value[field.field]?.offset ?? member.value.offset
                    decoder.inKey(field.field) {
                        $0.report("a named style holds literal values; bind \"\(field.field)\" in a node's own \"style\"", at: offset)
                    }
                }
            }
            styles[name] = style
        }
        return NamedStyles(styles)
    }

    /// A node's `class`: its names applied in order over an empty style, or `nil` when it is
    /// not a string. A name `styles` lacks is returned in `unknown`, located and with a
    /// did-you-mean, for the caller to report once the node stands (it draws without it).
    public mutating func classStyle(_ json: SourceJSON, from styles: NamedStyles, unknown: inout [Diagnostic]) -> NodeStyle? {
        guard let text = plainString(json) else { return nil }
        var style = NodeStyle()
        for name in text.split(whereSeparator: \.isWhitespace).map(String.init) {
            if let named = styles[name] {
                style.apply(named)
                continue
            }
            guard styles.knowsEveryName else { continue }
            let known = styles.names
            let shown = known.prefix(8).map { "\"\($0)\"" } + (known.count > 8 ? ["…"] : [])
            let why = known.isEmpty
                ? "; no named styles here (a document's \"styles\" and the manifest's \"theme\" define them)"
                : Suggestion.hint(for: name, in: known) + " (named styles here: " + shown.joined(separator: ", ") + ")"
            unknown.append(Diagnostic(offset: json.offset, path: path.description, message: "unknown class \(DiagnosticText.quoted(name))\(why)"))
        }
        return style
    }
}
