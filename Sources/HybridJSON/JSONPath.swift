/// A JSON path under construction while a decoder walks a document
/// (`$.body.children[2].style.width`, `$.files["main.js"].size`); turned into text only when a
/// diagnostic needs it, so a large clean document costs no string building.
public struct JSONPath: Sendable, CustomStringConvertible {
    /// One step: an object member or an array item.
    public enum Segment: Sendable {
        case key(String)
        case index(Int)
    }

    /// The steps from the root.
    public private(set) var segments: [Segment] = []

    /// The root, `$`.
    public init() {}

    /// Steps into a member or item.
    public mutating func push(_ segment: Segment) { segments.append(segment) }
    /// Steps back out.
    public mutating func pop() { segments.removeLast() }

    /// `$` followed by `.key`, `["odd key"]` and `[index]` steps; long keys are cut
    /// (``DiagnosticText/cut(_:)``), since paths are echoed in messages.
    public var description: String {
        var text = "$"
        for segment in segments {
            switch segment {
            case .key(let whole):
                let key = DiagnosticText.cut(whole)
                guard key.isEmpty || !key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }) else {
                    text += "." + key
                    continue
                }
                // Escaped so a key holding a quote still reads as one key.
                var escaped = ""
                for character in key {
                    if character == "\"" || character == "\\" { escaped.append("\\") }
                    escaped.append(character)
                }
                text += "[\"" + escaped + "\"]"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
