/// Which versions are acceptable, as a manifest's `runtime` says: `>=1.0.0`, `>1.0.0`,
/// `=1.0.0` (or a bare `1.0.0`), `^1.2.0` or `~1.2.0`.
///
/// Prereleases are ordinary versions in semver order: `>=1.0.0` accepts `1.1.0-beta`. The
/// upper bounds of `^` and `~` stop below the next version's prereleases (`^1.2.0` refuses
/// `2.0.0-alpha`), so a caret never lets in the next incompatible line.
public struct VersionRequirement: Sendable, Hashable, CustomStringConvertible {
    /// How `version` bounds the accepted versions.
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        /// `>=V`: V or newer.
        case atLeast = ">="
        /// `>V`: strictly newer than V.
        case greaterThan = ">"
        /// `=V` or a bare `V`: exactly V.
        case exactly = "="
        /// `^V`: V or newer without changing the leftmost non-zero part (`^1.2.0` < 2.0.0,
        /// `^0.2.0` < 0.3.0, `^0.0.3` < 0.0.4), as npm and Cargo read it.
        case compatible = "^"
        /// `~V`: V or newer within the same minor version (`~1.2.0` < 1.3.0).
        case approximately = "~"
    }

    /// The comparison.
    public var comparison: Operator
    /// The version compared with.
    public var version: SemanticVersion

    /// A requirement from its parts.
    public init(_ comparison: Operator, _ version: SemanticVersion) {
        self.comparison = comparison
        self.version = version
    }

    /// Parses `>=1.0.0`, `>1.0.0`, `=1.0.0`, `^1.2.0`, `~1.2.0` or a bare `1.0.0` (no spaces).
    public init(parsing text: String) throws(VersionSyntaxError) {
        // Longest operator first, so ">=" is not read as ">" followed by "=1.0.0".
        let order: [Operator] = [.atLeast, .greaterThan, .exactly, .compatible, .approximately]
        let found = order.first { text.hasPrefix($0.rawValue) }
        let rest = found.map { String(text.dropFirst($0.rawValue.count)) } ?? text
        if rest.first?.isWhitespace == true || text.first?.isWhitespace == true {
            throw VersionSyntaxError(text: text, reason: "write it without spaces, like \">=1.0.0\"")
        }
        let version: SemanticVersion
        do {
            version = try SemanticVersion(parsing: rest)
        } catch {
            // Anything before a digit that is not an operator is the likely mistake ("<=1.0.0").
            if found == nil, let first = text.first, !first.isNumber {
                throw VersionSyntaxError(text: text, reason: "expected >=, >, =, ^, ~ or a bare version, like \">=1.0.0\"")
            }
            throw VersionSyntaxError(text: text, reason: error.reason)
        }
        self.init(found ?? .exactly, version)
    }

    /// Parses a requirement; `nil` when the text is not one.
    public init?(_ text: String) {
        guard let requirement = try? VersionRequirement(parsing: text) else { return nil }
        self = requirement
    }

    /// Whether `candidate` meets the requirement.
    public func satisfies(_ candidate: SemanticVersion) -> Bool {
        switch comparison {
        case .atLeast: return candidate >= version
        case .greaterThan: return candidate > version
        case .exactly: return candidate == version
        case .compatible, .approximately: return candidate >= version && upperBound.map { candidate < $0 } ?? true
        }
    }

    /// The first version refused above `version` for `^` and `~`: the next line's lowest
    /// prerelease (`X.Y.Z-0`), so its prereleases are refused too. `nil` when the part to raise
    /// is already `Int.max` (nothing is above it).
    private var upperBound: SemanticVersion? {
        func next(_ part: Int) -> Int? {
            let (sum, overflow) = part.addingReportingOverflow(1)
            return overflow ? nil : sum
        }
        let lowest = ["0"]
        if comparison == .approximately || version.major == 0 && version.minor > 0 {
            return next(version.minor).map { SemanticVersion(major: version.major, minor: $0, patch: 0, prerelease: lowest) }
        }
        if version.major == 0 && version.minor == 0 {
            return next(version.patch).map { SemanticVersion(major: 0, minor: 0, patch: $0, prerelease: lowest) }
        }
        return next(version.major).map { SemanticVersion(major: $0, minor: 0, patch: 0, prerelease: lowest) }
    }

    /// The requirement as written in a manifest (`>=1.0.0`; `=` is always written).
    public var description: String { comparison.rawValue + version.description }
}
