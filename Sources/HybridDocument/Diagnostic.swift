import HybridJSON

/// One problem found in a document, located by byte offset and JSON path.
///
/// Rendered as `FILE:LINE:COL: $.body.children[2].style.width: message`, the shape every tool of
/// the runtime uses, so editors can jump to it.
public struct Diagnostic: Sendable, Hashable {
    /// How bad it is: errors make `hybrid validate` fail, warnings do not.
    public enum Severity: Sendable, Hashable {
        case error, warning
    }

    /// Byte offset in the source where the problem is.
    public var offset: Int
    /// The JSON path of the offending value, like `$.body.children[2].style.width`.
    public var path: String
    /// What is wrong, and what was expected.
    public var message: String
    /// Error or warning.
    public var severity: Severity

    /// A diagnostic at a source offset.
    public init(offset: Int, path: String, message: String, severity: Severity = .error) {
        self.offset = offset
        self.path = path
        self.message = message
        self.severity = severity
    }

    /// `FILE:LINE:COL: PATH: message` (with `warning: ` before the message for warnings).
    public func formatted(in source: SourceText) -> String {
        let prefix = severity == .warning ? "warning: " : ""
        return "\(source.describe(offset)): \(path): \(prefix)\(message)"
    }
}

/// A JSON path under construction while the decoder walks a document; turned into text only
/// when a diagnostic needs it, so a large clean document costs no string building.
struct JSONPath {
    enum Segment {
        case key(String)
        case index(Int)
    }

    private(set) var segments: [Segment] = []

    mutating func push(_ segment: Segment) { segments.append(segment) }
    mutating func pop() { segments.removeLast() }

    var description: String {
        var text = "$"
        for segment in segments {
            switch segment {
            case .key(let key):
                if key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }) {
                    text += "." + key
                } else {
                    text += "[\"" + key + "\"]"
                }
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}

/// Suggests the closest known name for a misspelt one ("colour" → "color").
enum Suggestion {
    /// The closest candidate within a small edit distance, or `nil`.
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(lowered), Array(candidate.lowercased()))
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(1, min(3, word.count / 3))
        return best.distance <= allowed ? best.name : nil
    }

    /// `; did you mean "x"?` or nothing.
    static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Edit distance counting a swap of neighbours ("bleu"/"blue") as one edit.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
