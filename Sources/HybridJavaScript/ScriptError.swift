import HybridJSON

/// A script failed: a thrown value, with where it was thrown and the stack.
public struct ScriptError: Error, CustomStringConvertible, Sendable {
    /// What JavaScriptCore throws when the time limit stops a script; not an `Error` object,
    /// and no `catch` in the script can intercept it.
    public static let terminationMessage = "JavaScript execution terminated."

    /// The thrown value's text, e.g. `TypeError: null is not an object`.
    public var message: String
    /// `FILE:LINE:COL` of the throw, when known.
    public var location: String?
    /// The stack, innermost frame first (`function@file:line:col`).
    public var stack: [String]
    /// Whether the time limit stopped the script.
    public var isTermination = false

    /// An error with its parts.
    public init(message: String, location: String?, stack: [String], isTermination: Bool = false) {
        self.message = message
        self.location = location
        self.stack = stack
        self.isTermination = isTermination
    }

    /// `FILE:LINE:COL: message`, on one line: control characters and line breaks a script put in
    /// its message are shown as escapes (`\u{1B}`, `\n`), so that printing it can neither drive
    /// the terminal nor forge another `FILE:LINE:COL:` line.
    public var description: String { DiagnosticText.escaped(location.map { "\($0): \(message)" } ?? message) }

    /// The description followed by the stack, one frame per indented line (escaped as the
    /// description is); a frame repeated in a row (a recursion that overflowed the stack) is
    /// written once, with its count.
    public var report: String {
        var lines = [description]
        var index = stack.startIndex
        while index < stack.endIndex {
            let frame = stack[index]
            let repeats = stack[index...].prefix { $0 == frame }.count
            lines.append("    at " + DiagnosticText.escaped(frame) + (repeats > 1 ? " (\(repeats) times)" : ""))
            index += repeats
        }
        return lines.joined(separator: "\n")
    }
}
