import Foundation
import HybridDocument
import HybridFiles
import HybridJSON
import HybridWidgets

/// Where screens come from, by name: `app://NAME?key=value` opens the same way whether NAME is
/// a JSON screen of the bundle (or a file beside the first screen), a screen a script built,
/// or a native screen registered from Swift.
struct Router {
    /// JSON screens by name: a path relative to `folder`.
    var files: [String: String] = [:]
    /// The folder screen paths are relative to.
    var folder = "."
    /// In a bundle only the manifest's screens open: no file beside them that the bundle's
    /// checks never saw.
    var onlyListedFiles = false
    /// Screens built by scripts (`ui.show({...})`), by name.
    var built: [String: JSONValue] = [:]
    /// The named styles every JSON screen starts from: the bundle's theme (SPEC §2).
    var theme = NamedStyles()
    /// Native screens, by name.
    var native: [String: @Sendable (JSONObject) -> JSONValue] = [:]
    /// A screen's document loaded before it was opened (`prepare(_:)`), with the text and the
    /// styles it was loaded from; taken by the next `document(of:)`, used only if they match.
    private var prepared: (source: SourceText, theme: NamedStyles, load: Loaded<ScreenDocument>)?

    /// A parsed `app://` URL (or a bare screen name).
    struct Target: Equatable {
        var name: String
        var params: JSONObject
    }

    /// Reads `app://NAME?key=value&…`; values are strings, percent-decoded.
    static func target(_ url: String) -> Target? {
        var rest = Substring(url)
        if rest.hasPrefix("app://") { rest = rest.dropFirst(6) } else if rest.contains(":") { return nil }
        let name = rest.prefix { $0 != "?" && $0 != "/" }
        guard !name.isEmpty else { return nil }
        var params = JSONObject()
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let value = parts.count > 1 ? (String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[1])) : ""
                if !key.isEmpty { params[key] = .string(value) }
            }
        }
        return Target(name: String(name), params: params)
    }

    /// `app://NAME?key=value…`, the URL `target` reads back (string values as they are, others
    /// as JSON).
    static func url(of name: String, params: JSONObject) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        let query = params.map { key, value in
            let text = value.stringValue ?? value.jsonText
            return (key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key) + "=" + (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
        }
        return "app://" + name + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// Loads the document of the JSON screen file called `name` now, for the next
    /// `document(of:)`: a bundle's start screen, while the engine makes the script context on
    /// its own thread and the app would only wait.
    mutating func prepare(_ name: String) {
        guard built[name] == nil, files[name] != nil, let source = source(of: name, params: JSONObject()) else { return }
        prepared = (source, theme, ScreenDocument.load(source, theme: theme))
    }

    /// The screen document of `source` with the current styles: the prepared one when it was
    /// loaded from the same text and styles, or loaded now.
    mutating func document(of source: SourceText) -> Loaded<ScreenDocument> {
        defer { prepared = nil }
        if let prepared, prepared.source.name == source.name, prepared.source.bytes == source.bytes, prepared.theme == theme {
            return prepared.load
        }
        return ScreenDocument.load(source, theme: theme)
    }

    /// The document of the screen called `name`: its text and where it came from.
    func source(of name: String, params: JSONObject) -> SourceText? {
        if let document = built[name] {
            return SourceText(name: "ui.show(\(name))", text: document.jsonText)
        }
        // A bundle's screen wins over the host's native one of the same name: that is how a
        // bundle replaces a built-in screen without a new binary.
        if let make = native[name], files[name] == nil {
            return SourceText(name: "native screen \(name)", text: make(params).jsonText)
        }
        guard let path = files[name] ?? (onlyListedFiles ? nil : FileSystem.join(folder, name + ".json")) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return SourceText(name: path, bytes: Array(data))
    }
}
