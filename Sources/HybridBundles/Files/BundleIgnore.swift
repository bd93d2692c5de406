#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HybridFiles

/// What a bundle folder holds that is not the bundle (SPEC §5): dotfiles and dot-folders
/// (`.git/`, `.DS_Store`, `.hbundleignore` itself), private key files, and what the folder's
/// `.hbundleignore` names. Packing leaves them out, and so does everything that lists a
/// bundle's files (verification, the development mirror), so a key or a repository beside the
/// screens is never shipped.
///
/// `.hbundleignore` takes gitignore's syntax: one pattern per line, `#` comments, `!` to take
/// a file back, a trailing `/` for folders only, a `/` at the start or in the middle to anchor
/// the pattern at the bundle's root (else it matches a name at any depth), `*`, `?`, `[…]`
/// and `**` for any number of folders.
struct BundleIgnore {
    /// The ignore file's name, at the bundle's root.
    static let fileName = ".hbundleignore"

    private struct Rule {
        var pattern: String
        var negated: Bool
        var foldersOnly: Bool
        var anchored: Bool
    }

    private var rules: [Rule] = []

    /// The rules of the `.hbundleignore` at `root`, none when there is no such file.
    init(root: String) {
        let bytes = FileBytes.read(FileSystem.join(root, Self.fileName)) ?? []
        self.init(text: String(decoding: bytes, as: UTF8.self))
    }

    /// The rules written in `text`.
    init(text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            var pattern = String(line)
            while pattern.hasSuffix(" ") && !pattern.hasSuffix("\\ ") { pattern.removeLast() }
            guard !pattern.isEmpty, !pattern.hasPrefix("#") else { continue }
            let negated = pattern.hasPrefix("!")
            if negated { pattern.removeFirst() }
            let foldersOnly = pattern.hasSuffix("/")
            while pattern.hasSuffix("/") { pattern.removeLast() }
            let anchored = pattern.contains("/")
            while pattern.hasPrefix("/") { pattern.removeFirst() }
            guard !pattern.isEmpty else { continue }
            rules.append(Rule(pattern: pattern, negated: negated, foldersOnly: foldersOnly, anchored: anchored))
        }
    }

    /// Why the entry at bundle path `path` is left out, or nil when it belongs to the bundle.
    /// `isFolder` says whether it is a folder; `contents` reads the start of a file (private
    /// keys are found by their first line too, whatever their name).
    func reason(forLeavingOut path: String, isFolder: Bool, contents: () -> [UInt8]?) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasPrefix(".") { return isFolder ? "a dot-folder" : "a dotfile" }
        if !isFolder, name.hasSuffix(".key") || contents().map(Self.isPrivateKey) == true { return "a private key" }
        var ignored = false
        for rule in rules where !rule.foldersOnly || isFolder {
            if Self.matches(rule, path: path, name: name) { ignored = !rule.negated }
        }
        return ignored ? "named in \(Self.fileName)" : nil
    }

    /// Whether `bytes` start like a private key file (`BundleKey.fileText`).
    static func isPrivateKey(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array(BundleKey.fileTag.utf8))
    }

    private static func matches(_ rule: Rule, path: String, name: String) -> Bool {
        if !rule.anchored { return glob(rule.pattern, name) }
        // `**/` may stand for no folder at all; `/**` for everything inside.
        if rule.pattern.hasPrefix("**/"), matches(Rule(pattern: String(rule.pattern.dropFirst(3)), negated: false, foldersOnly: false,
                                                        anchored: rule.pattern.dropFirst(3).contains("/")), path: path, name: name) {
            return true
        }
        if rule.pattern.hasSuffix("/**"), glob(String(rule.pattern.dropLast(3)), path) { return false }
        return glob(rule.pattern.replacingOccurrences(of: "**", with: "*"), path, pathname: !rule.pattern.contains("**"))
    }

    /// `fnmatch`; with `pathname`, `*` and `?` do not cross `/`.
    private static func glob(_ pattern: String, _ text: String, pathname: Bool = true) -> Bool {
        fnmatch(pattern, text, pathname ? FNM_PATHNAME : 0) == 0
    }
}
