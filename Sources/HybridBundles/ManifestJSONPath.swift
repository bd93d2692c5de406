/// The JSON path of the value being decoded (`$.files["main.js"].size`), turned into text only
/// when a diagnostic needs it. Spelt as screen documents spell theirs.
struct ManifestJSONPath {
    enum Segment {
        case key(String)
        case index(Int)
    }

    private var segments: [Segment] = []

    mutating func push(_ segment: Segment) { segments.append(segment) }
    mutating func pop() { segments.removeLast() }

    var description: String {
        var text = "$"
        for segment in segments {
            switch segment {
            case .key(let key) where !key.isEmpty && key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }):
                text += "." + key
            case .key(let key):
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
