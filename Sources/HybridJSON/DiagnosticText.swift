/// How user text appears inside messages: a document, a state file or an expression can hold
/// any string, and messages go to a developer's terminal, so what is echoed is escaped (an
/// ESC, BEL or newline can neither drive the terminal nor forge a `FILE:LINE:COL:` line) and
/// cut (a 1 MB key is not echoed whole).
public enum DiagnosticText {
    /// How many characters of a user's string a message echoes.
    public static let echoLimit = 80
    /// How many characters a whole message keeps; longer ones lose their middle.
    public static let messageLimit = 500

    /// `text` quoted as a message echoes it: `"text"`, cut to ``echoLimit`` characters with
    /// "…", control characters escaped.
    public static func quoted(_ text: some StringProtocol) -> String {
        "\"" + cut(text) + "\""
    }

    /// `text` cut to ``echoLimit`` characters with "…" (escaped later, with the message).
    public static func cut(_ text: some StringProtocol) -> String {
        // Counting characters of a huge string costs as much as echoing it: look at the start.
        guard text.utf8.count > echoLimit, text.count > echoLimit else { return String(text) }
        return String(text.prefix(echoLimit - 1)) + "…"
    }

    /// `message` safe to print: control characters (C0, DEL, C1), line and paragraph
    /// separators and bidirectional overrides shown as escapes (`\n`, `\u{1B}`), and a
    /// message longer than ``messageLimit`` characters cut in the middle.
    public static func safe(_ message: String) -> String {
        var text = message
        if text.utf8.count > messageLimit, text.count > messageLimit {
            text = String(text.prefix(messageLimit - 100)) + " … " + String(text.suffix(97))
        }
        return escaped(text)
    }

    /// `text` with control characters, line and paragraph separators and bidirectional
    /// overrides shown as escapes, as ``safe(_:)`` shows them, but not cut: for what a developer
    /// reads whole (a script's error and its stack).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where isUnsafe(scalar): escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
