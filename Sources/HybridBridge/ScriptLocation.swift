import HybridJavaScript

/// Turns JavaScriptCore's locations and stack frames into the script author's: the bridge's
/// own frames (its prelude, native code) are dropped, an error made inside the prelude is
/// located at the script line that called it, and columns on a module's first line lose the
/// `require` wrapper's width.
enum ScriptLocation {
    static let preludeURL = Prelude.sourceURL

    /// `error` with its location and stack cleaned; `fallback` locates values thrown without one.
    static func clean(_ error: ScriptError, modules: Set<String>, headerLength: Int, fallback: String?) -> ScriptError {
        var error = error
        let frames = error.stack.filter { !$0.contains(preludeURL) && !$0.contains("[native code]") }
        error.stack = frames.map { unwrap($0, modules: modules, headerLength: headerLength) }
        if let location = error.location, !location.hasPrefix(preludeURL) {
            error.location = unwrap(location, modules: modules, headerLength: headerLength)
        } else {
            error.location = error.stack.first.map(self.location) ?? fallback
        }
        return error
    }

    /// The first frame of `stack` outside the bridge, as `FILE:LINE:COL`.
    static func caller(in stack: String, modules: Set<String>, headerLength: Int) -> String? {
        stack.split(separator: "\n").map(String.init)
            .first { !$0.contains(preludeURL) && !$0.contains("[native code]") && $0.contains(":") }
            .map { location(unwrap($0, modules: modules, headerLength: headerLength)) }
    }

    /// `FILE:LINE:COL` of a frame `function@FILE:LINE:COL` (function names never hold a `/`;
    /// file names may hold an `@`).
    static func location(_ frame: String) -> String {
        guard let at = frame.firstIndex(of: "@"), !frame[..<at].contains("/") else { return frame }
        return String(frame[frame.index(after: at)...])
    }

    /// A frame or location with a module's first-line column unshifted.
    static func unwrap(_ frame: String, modules: Set<String>, headerLength: Int) -> String {
        let parts = frame.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 2] == "1", let column = Int(parts[parts.count - 1]),
              column > headerLength else { return frame }
        let head = parts.dropLast(2).joined(separator: ":")
        guard modules.contains(location(head)) else { return frame }
        return "\(head):1:\(column - headerLength)"
    }
}
