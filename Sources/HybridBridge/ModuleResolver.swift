import Foundation

/// Finds `require`d files: relative specifiers only, resolved inside the root folder (the main
/// script's folder) and never outside it, with `.js`, `.json` and `/index.js` tried in order.
struct ModuleResolver {
    /// The folder scripts may load from, as the user wrote it (kept relative for messages).
    let root: String

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
        guard Self.isInside(joined, root: Self.normalize(root)) else {
            throw Failure(message: "require(\"\(specifier)\"): \(joined) is outside the script's folder \(root)")
        }
        for candidate in [joined, joined + ".js", joined + ".json", joined + "/index.js"] {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            // A symbolic link may point anywhere; what counts is where the file really is.
            let real = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
            let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
            guard Self.isInside(real, root: realRoot) else {
                throw Failure(message: "require(\"\(specifier)\"): \(candidate) links outside the script's folder \(root)")
            }
            guard let data = FileManager.default.contents(atPath: candidate) else {
                throw Failure(message: "require(\"\(specifier)\"): cannot read \(candidate)")
            }
            let text = String(decoding: data, as: UTF8.self)
            return Module(path: candidate, source: candidate.hasSuffix(".json") ? "module.exports = \(text);" : text)
        }
        throw Failure(message: "require(\"\(specifier)\"): no file \(joined), \(joined).js, \(joined).json or \(joined)/index.js")
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

    static func isInside(_ path: String, root: String) -> Bool {
        if root == "." { return !path.hasPrefix("..") && !path.hasPrefix("/") }
        return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}
