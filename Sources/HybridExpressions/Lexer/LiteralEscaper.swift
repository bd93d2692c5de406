/// Resolves backslash escapes in the text parts of templates and string literals, as DivKit
/// does: `\\` is a backslash, `\'` a quote, `\@{` a literal `@{`; any other escape is an error.
enum LiteralEscaper {
    static func process(_ text: String) throws(LexError) -> String {
        // By scalar, as the rest reads it (and without Foundation's string search).
        guard text.unicodeScalars.contains("\\") else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\\" else {
                out.append(scalars[index])
                index += 1
                continue
            }
            var count = 0
            while index < scalars.count && scalars[index] == "\\" {
                count += 1
                index += 1
            }
            for _ in 0..<(count / 2) { out.append("\\") }
            guard count % 2 == 1 else { continue }
            // An odd backslash escapes what follows; it must be one of DivKit's escapables.
            if index == scalars.count || scalars[index] == " " {
                throw LexError(message: "Error tokenizing '\(text)'.", isTokenizing: false)
            }
            if scalars[index] == "'" {
                out.append("'")
                index += 1
            } else if scalars[index] == "@", index + 1 < scalars.count, scalars[index + 1] == "{" {
                out.append("@")
                out.append("{")
                index += 2
            } else {
                throw LexError(message: "Incorrect string escape", isTokenizing: false)
            }
        }
        return String(out)
    }
}
