import HybridJavaScript

/// Turns JavaScriptCore's locations and stack frames into the script author's: the bridge's
/// own frames (its prelude, native code) are dropped, an error made inside the prelude is
/// located at the script line that called it, and columns on a module's first line lose the
/// `require` wrapper's width. It wraps the modules itself, so it knows which files are wrapped.
final class ScriptLocator {
    /// Wraps each module; kept on the module's first line so every other line keeps its number
    /// (only columns on line 1 shift, and `unwrap` shifts them back).
    static let moduleHeader = "(function (exports, require, module, __filename, __dirname) {"
    /// Wraps an entry script whose top level awaits: its body runs as an async function's. As
    /// wide as `moduleHeader`, so columns unwrap the same.
    static let asyncModuleHeader = "(async function(exports,require,module,__filename,__dirname){"

    /// Frames and locations in the bridge's own scripts start with this.
    private static let preludeURL = BridgeScript.prelude.sourceURL

    /// The files run as modules (wrapped), by path.
    private var modules: Set<String> = []

    /// `source`, the module at `path`, wrapped in a function (an `async` one when `awaiting`)
    /// taking the CommonJS names.
    func wrap(_ source: String, path: String, awaiting: Bool = false) -> String {
        modules.insert(path)
        return (awaiting ? Self.asyncModuleHeader : Self.moduleHeader) + source + "\n})"
    }

    /// `error` with its location and stack cleaned; `fallback` locates values thrown without one.
    func clean(_ error: ScriptError, fallback: String?) -> ScriptError {
        var error = error
        let frames = error.stack.filter { !$0.contains(Self.preludeURL) && !$0.contains("[native code]") }
        error.stack = frames.map(unwrap)
        if let location = error.location, !location.hasPrefix(Self.preludeURL) {
            error.location = unwrap(location)
        } else {
            error.location = error.stack.first.map(Self.location) ?? fallback
        }
        return error
    }

    /// The first frame of `stack` outside the bridge, as `FILE:LINE:COL`.
    func caller(in stack: String) -> String? {
        stack.split(separator: "\n").map(String.init)
            .first { !$0.contains(Self.preludeURL) && !$0.contains("[native code]") && $0.contains(":") }
            .map { Self.location(unwrap($0)) }
    }

    /// `FILE:LINE:COL` of a frame `function@FILE:LINE:COL` (function names never hold a `/`;
    /// file names may hold an `@`).
    static func location(_ frame: String) -> String {
        guard let at = frame.firstIndex(of: "@"), !frame[..<at].contains("/") else { return frame }
        return String(frame[frame.index(after: at)...])
    }

    /// A frame or location with a module's first-line column unshifted.
    func unwrap(_ frame: String) -> String {
        let headerLength = Self.moduleHeader.count
        let parts = frame.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 2] == "1", let column = Int(parts[parts.count - 1]),
              column > headerLength else { return frame }
        let head = parts.dropLast(2).joined(separator: ":")
        guard modules.contains(Self.location(head)) else { return frame }
        return "\(head):1:\(column - headerLength)"
    }
}
