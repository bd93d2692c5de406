import HybridDocument
import HybridFiles
import HybridJSON

/// A bundle's theme file (SPEC §2, §5): `{"NAME": {…style…}}`, the named styles every screen
/// of the bundle starts from; a document's own `styles` of a name win over them.
public enum Theme {
    /// Reads a theme, collecting every problem. The styles are `nil` only when the text is
    /// not a JSON object; a style with problems keeps the fields that fit.
    public static func load(_ source: SourceText) -> Loaded<NamedStyles> {
        let json: SourceJSON
        do {
            json = try JSONParser.parse(source.bytes)
        } catch {
            return Loaded(value: nil, diagnostics: [Diagnostic(offset: error.offset, path: "$", message: "invalid JSON: " + error.message)], source: source)
        }
        var decoder = ThemeDecoder()
        let styles = decoder.namedStyles(json, allowingSchema: true)
        let diagnostics = decoder.diagnostics.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        return Loaded(value: json.members == nil ? nil : styles, diagnostics: diagnostics, source: source)
    }

    /// Reads a theme file; one that cannot be read is reported like a broken theme.
    public static func load(contentsOf path: String, displayName: String? = nil) -> Loaded<NamedStyles> {
        let name = displayName ?? path
        do {
            return load(SourceText(name: name, bytes: try FileBytes.contents(of: path)))
        } catch {
            return Loaded(value: nil, diagnostics: [Diagnostic(offset: 0, path: "$", message: "cannot read the theme: " + error.reason)],
                          source: SourceText(name: name, bytes: []))
        }
    }
}

extension Loaded where Value == NamedStyles {
    /// The styles to read screens with: those read, or `NamedStyles.unread` when the theme
    /// could not be read at all.
    public var styles: NamedStyles { value ?? .unread }
}

private struct ThemeDecoder: LocatingDecoder {
    var diagnostics: [Diagnostic] = []
    var path = JSONPath()
}
