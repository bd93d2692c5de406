/// The rules every path inside a bundle follows, in the manifest now and in archive entries
/// later: relative to the bundle's root, `/`-separated, and unable to leave the bundle by
/// spelling alone (symbolic links are checked on disk by `BundleFolder`).
///
/// Each file also has one spelling only (no `.` or empty segments), so `files` keys can be
/// matched against `screens`, `entry` and `patches` by plain string comparison.
public enum BundlePath {
    /// What is wrong with `path`, or `nil` when it is a valid bundle path.
    public static func problem(with path: String) -> String? {
        if path.isEmpty { return "expected a relative path, got an empty string" }
        let quoted = "\"\(path)\""
        if path.contains("\\") { return "\(quoted) contains a backslash; separate folders with \"/\"" }
        if path.hasPrefix("/") || path.hasPrefix("~") || hasDrive(path) {
            return "\(quoted) is an absolute path; paths are relative to the bundle folder"
        }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "\(quoted) contains a control character"
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains("..") { return "\(quoted) leaves the bundle: \"..\" segments are not allowed" }
        if segments.contains(".") { return "\(quoted) has a \".\" segment; write the path without it" }
        if path.hasSuffix("/") { return "\(quoted) names a folder; expected a file" }
        if segments.contains("") { return "\(quoted) has an empty segment (\"//\")" }
        return nil
    }

    /// Whether `path` is a valid bundle path.
    public static func isValid(_ path: String) -> Bool { problem(with: path) == nil }

    /// `C:` or `C:/…`: absolute on Windows, and never what a bundle author means.
    private static func hasDrive(_ path: String) -> Bool {
        let bytes = Array(path.utf8.prefix(2))
        guard bytes.count == 2, bytes[1] == UInt8(ascii: ":") else { return false }
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[0] | 0x20)
    }
}
