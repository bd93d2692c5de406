/// A semantic version `MAJOR.MINOR.PATCH` with an optional `-prerelease`, ordered as
/// semver.org §11 says, so "strictly newer" (the install rule of SPEC §5) is `>`.
///
/// Build metadata (`+build`) is refused rather than ignored: two versions differing only in it
/// would be neither newer nor older, and a bundle update must be one or the other.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Incompatible changes.
    public var major: Int
    /// Compatible additions.
    public var minor: Int
    /// Compatible fixes.
    public var patch: Int
    /// The dot-separated prerelease identifiers (`["beta", "2"]` for `-beta.2`); empty for a
    /// release.
    public var prerelease: [String]

    /// A version from its parts; `prerelease` identifiers are taken as given (use
    /// `init(parsing:)` to check text).
    public init(major: Int, minor: Int, patch: Int, prerelease: [String] = []) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
    }

    /// Parses `1.4.2` or `2.0.0-beta.1`; `nil` when the text is not such a version.
    public init?(_ text: String) {
        guard let version = try? SemanticVersion(parsing: text) else { return nil }
        self = version
    }

    /// Parses `1.4.2` or `2.0.0-beta.1`, saying what is wrong when the text is not a version.
    public init(parsing text: String) throws(VersionSyntaxError) {
        func fail(_ reason: String) -> VersionSyntaxError {
            VersionSyntaxError(text: text, reason: reason)
        }
        if text.hasPrefix("v") || text.hasPrefix("V") {
            throw fail("write it without the leading \"\(text.first!)\"")
        }
        if text.contains("+") {
            throw fail("build metadata (\"+…\") is not allowed, so that versions always order")
        }
        let core: Substring
        var prerelease: [String] = []
        if let dash = text.firstIndex(of: "-") {
            core = text[..<dash]
            let tail = text[text.index(after: dash)...]
            let identifiers = tail.split(separator: ".", omittingEmptySubsequences: false)
            for identifier in identifiers {
                if identifier.isEmpty { throw fail("a prerelease identifier is empty") }
                guard identifier.utf8.allSatisfy(Self.isIdentifierByte) else {
                    throw fail("prerelease identifiers use only letters, digits and \"-\"")
                }
                if Self.isNumeric(identifier), identifier.count > 1, identifier.hasPrefix("0") {
                    throw fail("the prerelease number \"\(identifier)\" has a leading zero")
                }
                prerelease.append(String(identifier))
            }
        } else {
            core = Substring(text)
        }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw fail(Self.shape) }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, Self.isNumeric(part) else { throw fail(Self.shape) }
            if part.count > 1, part.hasPrefix("0") { throw fail("\"\(part)\" has a leading zero") }
            guard let number = Int(part) else { throw fail("\"\(part)\" is too large") }
            numbers.append(number)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2], prerelease: prerelease)
    }

    static let shape = "expected MAJOR.MINOR.PATCH with an optional -prerelease, like \"1.4.2\" or \"2.0.0-beta.1\""

    /// Whether this is a prerelease (`1.0.0-rc.1`), which orders before its release.
    public var isPrerelease: Bool { !prerelease.isEmpty }

    /// `1.4.2` or `2.0.0-beta.1`.
    public var description: String {
        let core = "\(major).\(minor).\(patch)"
        return prerelease.isEmpty ? core : core + "-" + prerelease.joined(separator: ".")
    }

    /// Precedence per semver.org §11: numbers first, then a release above its prereleases, then
    /// prerelease identifiers left to right.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): break
        }
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
            return identifier(left, precedes: right)
        }
        // Equal so far: the shorter list of identifiers comes first (alpha < alpha.1).
        return lhs.prerelease.count < rhs.prerelease.count
    }

    /// Numeric identifiers order as numbers and before alphanumeric ones, which order as ASCII.
    /// Numbers are compared by length first (they have no leading zeros), so any length works.
    private static func identifier(_ left: String, precedes right: String) -> Bool {
        switch (isNumeric(left), isNumeric(right)) {
        case (true, true):
            return left.utf8.count != right.utf8.count ? left.utf8.count < right.utf8.count : left.utf8.lexicographicallyPrecedes(right.utf8)
        case (true, false): return true
        case (false, true): return false
        case (false, false): return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
    }

    private static func isNumeric(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}

/// Why a text is not a version (or a version requirement).
public struct VersionSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text that was read.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    /// An error for `text`.
    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    /// `invalid version "1.4": expected MAJOR.MINOR.PATCH …`.
    public var description: String { "invalid version \"\(text)\": \(reason)" }
}
