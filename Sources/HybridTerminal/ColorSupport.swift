/// How many colours the terminal can show; frames are degraded to this level when encoded.
/// Ordered from least to most capable, so `support >= .ansi256` reads naturally.
public enum ColorSupport: Sendable, Comparable, Hashable, CaseIterable {
    /// No colour at all (attributes such as bold and reverse are still used).
    case none
    /// The 16 ANSI colours (SGR 30–37, 90–97 and backgrounds).
    case ansi16
    /// The xterm 256-colour palette (SGR 38;5;n).
    case ansi256
    /// 24-bit colour (SGR 38;2;r;g;b).
    case trueColor

    /// Detects colour support from environment variables. Rules, first match wins:
    ///
    /// 1. `NO_COLOR` set to a non-empty value → `.none` (https://no-color.org).
    /// 2. `TERM` is `dumb` → `.none`.
    /// 3. `COLORTERM` is `truecolor` or `24bit` (any case) → `.trueColor`.
    /// 4. `TERM` ends in `-direct` or contains `truecolor` / `24bit` → `.trueColor`.
    /// 5. `TERM` contains `256color` (e.g. `xterm-256color`, `screen-256color`) → `.ansi256`.
    /// 6. `TERM` unset or empty → `.none`: nothing says a colour terminal is on the other end.
    /// 7. Any other `TERM` → `.ansi16`.
    public static func detect(environment: [String: String]) -> ColorSupport {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let term = (environment["TERM"] ?? "").lowercased()
        if term == "dumb" { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if term.hasSuffix("-direct") || term.contains("truecolor") || term.contains("24bit") {
            return .trueColor
        }
        if term.contains("256color") { return .ansi256 }
        if term.isEmpty { return .none }
        return .ansi16
    }
}
