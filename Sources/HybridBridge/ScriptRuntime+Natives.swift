import CJavaScriptCore
import Foundation
import HybridJSON
import HybridJavaScript
import HybridServices

/// The native primitives the prelude builds the globals on, besides services: timers,
/// console, modules, the bridge's dispatcher, and the prelude itself.
extension ScriptRuntime {
    func installPrelude() {
        let native = JSObjectMake(context.ref, nil, nil)!
        defineServiceFunctions(on: native)
        defineTimerFunctions(on: native)
        defineModuleFunctions(on: native)
        defineBridgeFunctions(on: native)
        definePatchFunctions(on: native)
        context.onUnhandledRejection(context.makeFunction { [unowned self] context, _, arguments in
            let reason: JSValueRef = arguments.count > 1 ? arguments[1]! : JSValueMakeUndefined(context)!
            var error = self.context.scriptError(from: reason)
            error.message = "unhandled promise rejection: " + error.message
            report(error)
            return nil
        })
        do {
            // The patch table first: the rest consults it.
            for (source, url) in [(Prelude.patchSource, Prelude.patchSourceURL), (Prelude.source, Prelude.sourceURL)] {
                let install = try context.evaluate(source, sourceURL: url)
                try context.call(JSValueToObject(context.ref, install, nil)!, arguments: [native])
            }
        } catch {
            preconditionFailure("the bridge prelude failed: \(error.report)")
        }
    }

    private func defineTimerFunctions(on native: JSObjectRef) {
        context.define("timer", on: native) { [unowned self] context, _, arguments in
            guard arguments.count >= 3, let callback = arguments[0] else { return nil }
            let delay = JSValueToNumber(context, arguments[1]!, nil) / 1000
            let repeating = JSValueToBoolean(context, arguments[2]!)
            let number = nextTimer
            nextTimer += 1
            let kept = ProtectedValue(callback, in: self.context)
            let id = loop.schedule(after: delay, repeating: repeating) { [weak self] in
                self?.fireTimer(number, callback: kept, repeating: repeating)
            }
            timers[number] = (id, kept)
            return JSValueMakeNumber(context, Double(number))
        }
        context.define("clearTimer", on: native) { [unowned self] context, _, arguments in
            guard let first = arguments.first, let number = Int(exactly: JSValueToNumber(context, first!, nil)),
                  let timer = timers.removeValue(forKey: number) else { return nil }
            loop.cancel(timer.id)
            return nil
        }
        context.define("log", on: native) { [unowned self] _, _, arguments in
            guard arguments.count >= 2 else { return nil }
            console(context.string(arguments[0]!), context.string(arguments[1]!))
            return nil
        }
        context.define("reportError", on: native) { [unowned self] _, _, arguments in
            if let thrown = arguments.first { report(context.scriptError(from: thrown!)) }
            return nil
        }
    }

    private func fireTimer(_ number: Int, callback: ProtectedValue, repeating: Bool) {
        if !repeating { timers[number] = nil }
        let result = enter(repeating ? "an interval" : "a timeout") { (context) throws(ScriptError) in
            try context.call(callback.object!, arguments: [])
        }
        // An interval that ran away would run away again on every tick.
        if repeating, case .failure(let error) = result, error.isTermination, let timer = timers.removeValue(forKey: number) {
            loop.cancel(timer.id)
        }
    }

    private func defineModuleFunctions(on native: JSObjectRef) {
        context.define("resolve", on: native) { [unowned self] _, _, arguments throws(ScriptThrow) in
            let specifier = arguments.count > 0 ? context.string(arguments[0]!) : ""
            let folder = arguments.count > 1 ? context.string(arguments[1]!) : "."
            do throws(ModuleResolver.Failure) {
                let module = try resolver.resolve(specifier, from: folder)
                return context.makeValue(.object(JSONObject([("path", .string(module.path)), ("source", .string(module.source))])))
            } catch {
                throw ScriptThrow(context.makeError(error.message))
            }
        }
        context.define("compile", on: native) { [unowned self] _, _, arguments throws(ScriptThrow) in
            guard arguments.count >= 2 else { return nil }
            let path = context.string(arguments[1]!)
            var source = context.string(arguments[0]!)
            // A `#!` line is fine at the top of a file but not inside the wrapper.
            if source.hasPrefix("#!") { source = "//" + source.dropFirst(2) }
            modules.insert(path)
            switch context.evaluateCatching(Self.moduleHeader + source + "\n})", sourceURL: path) {
            case .success(let function):
                return function
            case .failure(let thrown):
                locateSyntaxError(thrown.value, in: source, path: path)
                throw thrown
            }
        }
        context.define("setMain", on: native) { [unowned self] _, _, arguments in
            mainLoader = arguments.first.map { ProtectedValue($0!, in: context) }
            return nil
        }
    }

    /// JavaScriptCore gives a module's syntax error the right line but the column of the
    /// `require` call; point the column at the offending token of that line instead (or at the
    /// line's first non-blank character when the message names none).
    private func locateSyntaxError(_ error: JSValueRef, in source: String, path: String) {
        guard let line = context.property("line", of: error).map({ Int(JSValueToNumber(context.ref, $0, nil)) }),
              context.property("sourceURL", of: error).map(context.string) == path,
              let object = JSValueToObject(context.ref, error, nil) else { return }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.indices.contains(line - 1) else { return }
        let text = lines[line - 1]
        let message = context.string(error)
        var column = (text.firstIndex { !$0.isWhitespace }.map { text.distance(from: text.startIndex, to: $0) } ?? 0) + 1
        if let quote = message.firstIndex(of: "'"), let end = message[message.index(after: quote)...].firstIndex(of: "'") {
            let token = message[message.index(after: quote)..<end]
            if !token.isEmpty, let found = text.range(of: token) {
                column = text.distance(from: text.startIndex, to: found.lowerBound) + 1
            }
        }
        // Reported columns on line 1 are shifted back by the wrapper's width later; match that.
        let reported = line == 1 ? column + Self.moduleHeader.count : column
        context.set("column", to: JSValueMakeNumber(context.ref, Double(reported)), on: object)
    }

    private func defineBridgeFunctions(on native: JSObjectRef) {
        context.define("setDispatcher", on: native) { [unowned self] _, _, arguments in
            dispatcher = arguments.first.map { ProtectedValue($0!, in: context) }
            return nil
        }
        context.define("respond", on: native) { [unowned self] context, _, arguments in
            guard arguments.count >= 2, let id = Int(exactly: JSValueToNumber(context, arguments[0]!, nil)),
                  let reply = responses.removeValue(forKey: id) else { return nil }
            reply(self.context.json(from: arguments[1]!))
            return nil
        }
    }
}

/// What a host adds on top of the SPEC §3 globals (the app's `ui` and `state`).
extension ScriptRuntime {
    /// Evaluates `source`, a function expression `(function (native) { … })`, and calls it with
    /// an object holding `natives`, so a host builds its globals the way the prelude does.
    public func install(_ source: String, sourceURL: String, natives: [String: HostFunctionBody]) {
        let native = JSObjectMake(context.ref, nil, nil)!
        for (name, body) in natives.sorted(by: { $0.key < $1.key }) {
            context.define(name, on: native, body)
        }
        enter(sourceURL) { (context) throws(ScriptError) in
            let install = try context.evaluate(source, sourceURL: sourceURL)
            try context.call(JSValueToObject(context.ref, install, nil)!, arguments: [native])
        }
    }

    /// Calls a script function kept by the host (a handler, a watcher) as one entry into
    /// JavaScript; what it throws is reported and returned as a failure.
    @discardableResult
    public func invoke(_ function: ProtectedValue, as what: String, with arguments: [JSONValue]) -> Result<JSONValue, ScriptError> {
        enter(what) { (context) throws(ScriptError) in
            context.json(from: try context.call(function.object!, making: arguments.map { argument in { context.makeValue(argument) } }))
        }
    }
}
