/// The name rules of a manifest: app names become folder names (storage, the bundle cache),
/// screen names appear in `app://` URLs, permissions match services' permissions.
public enum BundleNames {
    /// Whether `name` is an app name: ASCII letters, digits, `-`, `_` and `.`, not starting
    /// with `.` (so never `.`, `..` or a hidden folder), at most 128 characters.
    public static func isAppName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "."), name.utf8.count <= 128 else { return false }
        return name.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    /// Whether `name` is a screen name, spelt like a component name: letters, digits, `_`, `-`
    /// and `.`, starting with a letter or `_`.
    public static func isScreenName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return name.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// Whether `name` is a permission: dot-separated parts of letters, digits, `_` and `-`,
    /// each starting with a letter (`net.request`, `storage`, `cart`).
    public static func isPermission(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            guard let first = part.utf8.first, isLetter(first) else { return false }
            return part.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
        }
    }

    /// The screen an `app://SCREEN?query` URL opens, or `nil` when `text` is not such a URL
    /// with a valid screen name.
    public static func screenName(inAppURL text: String) -> String? {
        guard text.hasPrefix(appScheme) else { return nil }
        let rest = text.dropFirst(appScheme.count)
        let name = String(rest.prefix { $0 != "?" && $0 != "#" })
        return isScreenName(name) ? name : nil
    }

    /// The scheme of the router's URLs.
    public static let appScheme = "app://"

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
