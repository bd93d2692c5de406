import Foundation
import HybridDocument
import HybridFiles
import HybridJSON

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
