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
                // A short ASCII name (nearly every key) reads as itself, known from its bytes:
                // asking each `Character` whether it is a letter looks Unicode tables up.
                if !whole.isEmpty, whole.utf8.count <= DiagnosticText.echoLimit, whole.utf8.allSatisfy(Self.isPlainNameByte) {
                    text += "." + whole
                    continue
                }
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

    /// An ASCII letter, digit, `_` or `$`: the bytes of a key written without brackets.
    private static func isPlainNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"):
            return true
        default:
            return false
        }
    }
}
