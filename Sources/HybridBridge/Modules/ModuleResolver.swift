import Foundation
import HybridJSON

/// Finds `require`d files: relative specifiers only, resolved inside the root folder (the main
/// script's folder) and never outside it, with `.js`, `.json` and `/index.js` tried in order.
///
/// Paths stay as the user wrote them (relative), since they name files in messages and stacks;
/// containment is decided on absolute, standardized paths, component by component, and again
/// after following symbolic links.
struct ModuleResolver {
    /// The folder scripts may load from, as the user wrote it.
    let root: String
    /// `root` made absolute once, against the working directory at the time.
    private let absoluteRoot: [String]
    /// The working directory at the time, which relative paths are taken from.
    private let base: String

    init(root: String) {
        self.root = root
        base = FileManager.default.currentDirectoryPath
        absoluteRoot = Self.components(of: root, base: base)
    }

    struct Module {
        var path: String
        var source: String
    }

    struct Failure: Error {
        var message: String
    }

    func resolve(_ specifier: String, from folder: String) throws(Failure) -> Module {
        guard specifier.hasPrefix("./") || specifier.hasPrefix("../") else {
            throw Failure(message: "require(\"\(specifier)\"): only relative paths (./ or ../) inside the script's folder can be loaded")
        }
        let joined = Self.normalize(folder + "/" + specifier)
        guard Self.isInside(Self.components(of: joined, base: base), root: absoluteRoot) else {
            throw Failure(message: "require(\"\(specifier)\"): \(joined) is outside the script's folder \(root)")
        }
        for candidate in [joined, joined + ".js", joined + ".json", joined + "/index.js"] {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            // A symbolic link may point anywhere; what counts is where the file really is.
            let baseURL = URL(fileURLWithPath: base, isDirectory: true)
            let real = URL(fileURLWithPath: candidate, relativeTo: baseURL).resolvingSymlinksInPath().pathComponents
            let realRoot = URL(fileURLWithPath: root, relativeTo: baseURL).resolvingSymlinksInPath().pathComponents
            guard Self.isInside(real, root: realRoot) else {
                throw Failure(message: "require(\"\(specifier)\"): \(candidate) is a link to a file outside the script's folder \(root)")
            }
            guard let data = FileManager.default.contents(atPath: candidate) else {
                throw Failure(message: "require(\"\(specifier)\"): cannot read \(candidate)")
            }
            let text = String(decoding: data, as: UTF8.self)
            return Module(path: candidate, source: candidate.hasSuffix(".json") ? Self.jsonModule(text) : text)
        }
        throw Failure(message: "require(\"\(specifier)\"): no file \(joined), \(joined).js, \(joined).json or \(joined)/index.js")
    }

    /// A JSON file as a module: parsed as JSON (never run as code), so it can hold only data.
    private static func jsonModule(_ text: String) -> String {
        var literal = ""
        JSONText.appendQuoted(text, to: &literal)
        return "module.exports = JSON.parse(\(literal));"
    }

    /// `a/./b/../c` → `a/c`, keeping the path relative when it was.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The absolute components of `path` (`["/", "home", …]`), `.` and `..` resolved in the
    /// text (`/..` is `/`); where symbolic links lead is checked apart, in `resolve`, on the
    /// real paths. Worked out by hand: making and standardizing the `URL`s cost 0.44 M
    /// instructions, and every runtime makes a resolver as it starts, whether its scripts
    /// `require` anything or not.
    private static func components(of path: String, base: String) -> [String] {
        var parts: [Substring] = []
        for part in (path.hasPrefix("/") ? path : base + "/" + path).split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return ["/"] + parts.map(String.init)
    }

    private static func isInside(_ path: [String], root: [String]) -> Bool {
        path.count >= root.count && Array(path.prefix(root.count)) == root
    }
}
