/// Key names as screens and `--keys` write them: `q`, `enter`, `ctrl+r`, `shift+tab`, `f5`.
public enum KeyName {
    /// Named keys besides single characters.
    public static let named: Set<String> = [
        "enter", "esc", "tab", "space", "backspace", "delete", "insert", "up", "down", "left", "right",
        "home", "end", "pageup", "pagedown",
        "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12",
    ]
    static let modifiers = ["ctrl", "alt", "shift"]

    /// The canonical form of a key name (modifiers in `ctrl+alt+shift+` order, named keys
    /// lower-cased), or `nil` when it names no key.
    public static func normalize(_ name: String) -> String? {
        if name.count == 1 { return name.first!.isWhitespace ? nil : name }
        var parts = name.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // "ctrl++" binds the plus key.
        if name.hasSuffix("++") { parts.removeLast(2); parts.append("+") }
        guard let base = parts.popLast(), !base.isEmpty else { return nil }
        var found = Set<String>()
        for modifier in parts {
            let lowered = modifier.lowercased()
            guard modifiers.contains(lowered), found.insert(lowered).inserted else { return nil }
        }
        let key: String
        if base.count == 1 {
            guard !base.first!.isWhitespace else { return nil }
            key = found.isEmpty ? base : base.lowercased()
        } else {
            guard named.contains(base.lowercased()) else { return nil }
            key = base.lowercased()
        }
        return (modifiers.filter(found.contains) + [key]).joined(separator: "+")
    }

    /// Whether `name` can name a script handler.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }
    }
}
