import HybridJSON

/// Writes a manifest back as readable JSON: one top-level member a line, short objects and
/// arrays kept on one line (`"main.js": { "sha256": "…", "size": 120 }`), members in their
/// order. `hybrid bundle pack` uses it to rewrite `manifest.json` with new `files`.
enum ManifestText {
    /// A line longer than this breaks its object or array over several lines.
    static let width = 160

    static func pretty(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: 0, column: 0, to: &output)
        return output + "\n"
    }

    private static func write(_ value: JSONValue, indent: Int, column: Int, to output: inout String) {
        let oneLine = inline(value)
        let isContainer: Bool
        switch value {
        case .object(let object): isContainer = !object.isEmpty
        case .array(let items): isContainer = !items.isEmpty
        default: isContainer = false
        }
        // The top level is always broken up; deeper values when they do not fit.
        guard isContainer, indent == 0 || column + oneLine.count + 1 > width else {
            output += oneLine
            return
        }
        let pad = String(repeating: " ", count: indent + 2)
        switch value {
        case .object(let object):
            output += "{\n"
            for (index, member) in object.members.enumerated() {
                var key = ""
                JSONText.appendQuoted(member.key, to: &key)
                output += pad + key + ": "
                write(member.value, indent: indent + 2, column: indent + 2 + key.count + 2, to: &output)
                output += index + 1 < object.members.count ? ",\n" : "\n"
            }
            output += String(repeating: " ", count: indent) + "}"
        case .array(let items):
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += pad
                write(item, indent: indent + 2, column: indent + 2, to: &output)
                output += index + 1 < items.count ? ",\n" : "\n"
            }
            output += String(repeating: " ", count: indent) + "]"
        default:
            output += oneLine
        }
    }

    /// The value on one line: `{ "a": 1 }`, `["x", "y"]`.
    private static func inline(_ value: JSONValue) -> String {
        switch value {
        case .object(let object):
            if object.isEmpty { return "{}" }
            let members = object.members.map { member -> String in
                var key = ""
                JSONText.appendQuoted(member.key, to: &key)
                return key + ": " + inline(member.value)
            }
            return "{ " + members.joined(separator: ", ") + " }"
        case .array(let items):
            return "[" + items.map(inline).joined(separator: ", ") + "]"
        default:
            return value.jsonText
        }
    }
}
