import Foundation
import HybridFiles
import HybridJSON
import HybridJavaScript

/// CommonJS modules for `require` (the prelude keeps the loaded ones): files found by a
/// `ModuleResolver` inside the main script's folder, compiled wrapped in a function (which the
/// `ScriptLocator` unwraps in locations), and the main script run as the first of them.
/// Loop thread only.
final class ModuleLoader {
    /// The prelude's `loadMain(path, source)`; nil once the runtime shut down.
    var loadMain: ProtectedValue?

    private let entries: ScriptEntries
    private var resolver = ModuleResolver(root: ".")

    init(entries: ScriptEntries) {
        self.entries = entries
    }

    /// Runs the script at `path` as the main module; `require` resolves inside its folder from
    /// then on. False (after reporting) when it could not be read, threw or ran away.
    func runMain(path: String) -> Bool {
        let data: [UInt8]
        do {
            data = try FileBytes.contents(of: path)
        } catch {
            entries.report(ScriptError(message: "cannot read the script: " + error.reason, location: path, stack: []))
            return false
        }
        resolver = ModuleResolver(root: FileSystem.parentFolder(of: path))
        guard let loadMain else { return false }
        let source = String(decoding: data, as: UTF8.self)
        let result = entries.enter(path) { (context) throws(ScriptError) in
            try loadMain.value.call(making: [{ context.makeString(path) }, { context.makeString(source) }])
        }
        return (try? result.get()) != nil
    }

    /// The syntax error of the script at `path` as a module (top-level `await` accepted, as in
    /// an entry script), located in the author's terms, or nil when it compiles; nothing of it runs.
    func syntaxError(inScriptAt path: String) -> ScriptError? {
        guard let data = FileManager.default.contents(atPath: path) else {
            return ScriptError(message: "cannot read the script", location: path, stack: [])
        }
        do throws(ScriptThrow) {
            _ = try compile(String(decoding: data, as: UTF8.self), path: path, main: true)
            return nil
        } catch {
            return entries.locator.clean(entries.context.scriptError(from: error.value), fallback: path)
        }
    }

    /// The file `specifier` names, required from a module in `folder`.
    func resolve(_ specifier: String, from folder: String) throws(ModuleResolver.Failure) -> ModuleResolver.Module {
        try resolver.resolve(specifier, from: folder)
    }

    /// The module function of `source`, the file `path`; throws a syntax error as the engine
    /// made it, with its column put on the offending token.
    ///
    /// Top-level `await` (SPEC §3) is a syntax error in a plain function. For the `main` script,
    /// a source that compiles only as an async function's body is compiled so; for a module
    /// `require` loads, whose exports must be there when `require` returns, the error says so.
    func compile(_ source: String, path: String, main: Bool = false) throws(ScriptThrow) -> JavaScriptValue {
        var source = source
        // A `#!` line is fine at the top of a file but not inside the wrapper.
        if source.hasPrefix("#!") { source = "//" + source.dropFirst(2) }
        let context = entries.context
        switch context.evaluateCatching(entries.locator.wrap(source, path: path), sourceURL: path) {
        case .success(let function):
            return function
        case .failure(let thrown):
            if case .success(let function) = context.evaluateCatching(entries.locator.wrap(source, path: path, awaiting: true), sourceURL: path) {
                if main { return function }
                thrown.value.set("message", to: context.makeString(
                    "top-level await works in a bundle's entry script only, and this file is loaded by require (\(thrown.value["message"].string))"))
            }
            locateSyntaxError(thrown.value, in: source, path: path)
            throw thrown
        }
    }

    /// JavaScriptCore gives a module's syntax error the right line but the column of the
    /// `require` call; point the column at the offending token of that line instead (or at the
    /// line's first non-blank character when the message names none).
    private func locateSyntaxError(_ error: JavaScriptValue, in source: String, path: String) {
        let lineValue = error["line"]
        guard !lineValue.isUndefined, error["sourceURL"].string == path else { return }
        let line = Int(lineValue.number)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.indices.contains(line - 1) else { return }
        let text = lines[line - 1]
        let message = error.string
        var column = (text.firstIndex { !$0.isWhitespace }.map { text.distance(from: text.startIndex, to: $0) } ?? 0) + 1
        if let quote = message.firstIndex(of: "'"), let end = message[message.index(after: quote)...].firstIndex(of: "'") {
            let token = message[message.index(after: quote)..<end]
            if !token.isEmpty, let found = text.range(of: token) {
                column = text.distance(from: text.startIndex, to: found.lowerBound) + 1
            }
        }
        // Reported columns on line 1 are shifted back by the wrapper's width later; match that.
        let reported = line == 1 ? column + ScriptLocator.moduleHeader.count : column
        error.set("column", to: entries.context.makeNumber(Double(reported)))
    }
}
