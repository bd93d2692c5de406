import HybridJSON
import HybridJavaScript
import HybridServices

/// The `native` object of the bridge's scripts (prelude.js, patches.js…): each `Native` run by the part of the
/// runtime that owns what it touches. Holds them unowned: the functions live in the context's
/// heap, which the runtime owns. Checked `unowned`, though each use costs two atomic operations:
/// a native keeps what it uses alive while it runs (a service may release the runtime), and one
/// called through a context kept past its runtime stops with a clear trap.
struct BridgeNatives {
    unowned let entries: ScriptEntries
    unowned let calls: ServiceCalls
    unowned let timers: ScriptTimers<ScriptTimer>
    unowned let modules: ModuleLoader
    unowned let handlers: HandlerCalls
    unowned let hooks: PatchHooks
    /// `ready()`; must not hold the runtime strongly either.
    let ready: () -> Void
    /// `loadWebGlobals()`; must not hold the runtime strongly either.
    let loadWebGlobals: () throws(ScriptThrow) -> JavaScriptValue
    /// `loadScript({name})`, given the name; must not hold the runtime strongly either.
    let loadScript: (String) throws(ScriptThrow) -> JavaScriptValue
    /// When the runtime started, for `now()`.
    let started = ContinuousClock.now

    /// A new `native` object holding every `Native`, and nothing else.
    func makeObject() -> JavaScriptValue {
        let native = entries.context.makeObject()
        for name in Native.allCases { native.define(name.rawValue, function(name)) }
        return native
    }

    /// Read through `entries` each time, so no function holds the context strongly.
    private var context: JavaScriptContext { entries.context }

    private func function(_ native: Native) -> NativeFunction {
        switch native {
        case .call:
            return { arguments throws(ScriptThrow) in
                // A stopped script caught in code the engine does not stop (a getter read while a
                // service's parameters are converted that calls a service itself) starts none.
                try arguments.context.throwIfStopped()
                // Loaded once, and kept alive for the call (each load of an unowned part is two
                // atomic operations; this is the bridge's hot path).
                let calls = calls
                let started: ServiceCalls.Started
                do throws(ServiceError) {
                    started = try calls.call(calls.service(arguments[0]), parameters: arguments[1], checkedAt: arguments[6].number,
                                             fieldValues: arguments.values(from: 7), timeout: arguments[2].number,
                                             resolve: arguments[3], reject: arguments[4])
                } catch {
                    throw try Self.failure(error, in: context)
                }
                switch started {
                case .answered(let answer):
                    let context = arguments.context
                    return try Self.answer(context.makeValue(answer), in: context)
                case .inFlight(let id):
                    arguments[5].set("id", to: context.makeNumber(Double(id)))
                    return nil
                }
            }
        case .callSync:
            return { arguments throws(ScriptThrow) in
                // A stopped script caught in code the engine does not stop (a getter read while a
                // service's parameters are converted that calls a service itself) starts none.
                try arguments.context.throwIfStopped()
                let calls = calls
                let answer: JSONValue
                do throws(ServiceError) {
                    answer = try calls.callSync(calls.service(arguments[0]), parameters: arguments[1],
                                                checkedAt: arguments[6].number, fieldValues: arguments.values(from: 7))
                } catch {
                    throw try Self.failure(error, in: context)
                }
                let context = arguments.context
                return try Self.answer(context.makeValue(answer), in: context)
            }
        case .now:
            return { _ in
                let elapsed = (ContinuousClock.now - started).components
                return context.makeNumber(Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15)
            }
        case .cancelCall:
            return { arguments in
                if let id = Int(exactly: arguments[0]["id"].number) { calls.cancel(id: id) }
                return nil
            }
        case .fields:
            return { arguments in context.makeValue(calls.fields(of: arguments[0]["service"].string)) }
        case .services:
            return { _ in context.makeValue(calls.descriptions) }
        case .ready:
            return { _ in
                ready()
                return nil
            }
        case .loadWebGlobals:
            return { _ throws(ScriptThrow) in try loadWebGlobals() }
        case .loadScript:
            return { arguments throws(ScriptThrow) in try loadScript(arguments[0]["name"].string) }
        case .locate:
            return { arguments in entries.locator.caller(in: arguments[0]["stack"].string).map(context.makeString) }
        case .respond:
            return { arguments in
                let message = arguments[0]
                if let id = Int(exactly: message["id"].number) { handlers.respond(to: id, with: message["response"].json) }
                return nil
            }
        case .log:
            return { arguments in
                entries.console(arguments[0]["level"].string, arguments[0]["text"].string)
                return nil
            }
        case .reportError:
            return { arguments in
                entries.report(context.scriptError(from: arguments[0]["error"]))
                return nil
            }
        case .overBudget:
            return { arguments in
                context.makeBoolean(context.isOverBudget { entries.locator.caller(in: arguments[0]["site"]["stack"].string) })
            }
        case .timer:
            return { arguments in
                let message = arguments[0]
                let timer = ScriptTimer(callback: message["callback"].protect(), site: message["site"].protect())
                let number = timers.start(timer, after: message["delay"].number / 1000, repeating: message["repeating"].boolean)
                return context.makeNumber(Double(number))
            }
        case .clearTimer:
            return { arguments in
                if let number = Int(exactly: arguments[0]["id"].number) { timers.clear(number) }
                return nil
            }
        case .resolve:
            return { arguments throws(ScriptThrow) in
                let message = arguments[0]
                do throws(ModuleResolver.Failure) {
                    let module = try modules.resolve(message["specifier"].string, from: message["folder"].string)
                    return context.makeValue(.object(JSONObject([("path", .string(module.path)), ("source", .string(module.source))])))
                } catch {
                    throw ScriptThrow(context.makeError(error.message))
                }
            }
        case .compile:
            return { arguments throws(ScriptThrow) in
                try modules.compile(arguments[0]["source"].string, path: arguments[0]["path"].string, main: arguments[0]["main"].boolean)
            }
        case .patchFailureLimit:
            return { _ in context.makeNumber(Double(PatchHooks.failureLimit)) }
        case .hooked:
            return { arguments in
                hooks.setHooked(arguments[0]["target"].string, live: arguments[0]["live"].boolean)
                return nil
            }
        case .checkTarget:
            return { arguments in
                let message = arguments[0]
                hooks.warnIfUnknown(kind: message["kind"].string, name: message["name"].string, stack: message["stack"].string)
                return nil
            }
        case .patchFailed:
            return { arguments in
                hooks.hookFailed(arguments[0]["error"], note: arguments[0]["note"].string)
                return nil
            }
        case .patchNotice:
            return { arguments in
                hooks.notice(arguments[0]["text"].string)
                return nil
            }
        case .callMethod:
            return { arguments throws(ScriptThrow) in
                try hooks.callOriginal(arguments[0]["name"].string, arguments: arguments[0]["args"].json.arrayValue ?? [])
            }
        }
    }

    /// `value`, a service's answer made for the script, unless the entry was stopped meanwhile.
    /// A service's time counts against the entry that called it: when it ran out there, the
    /// engine stopped the script as the answer was made, and the stop was lost inside the engine
    /// call that made it (`JavaScriptContext.wasStopped`). The answer must not reach the script,
    /// which is stopped here instead.
    private static func answer(_ value: JavaScriptValue, in context: JavaScriptContext) throws(ScriptThrow) -> JavaScriptValue {
        try context.throwIfStopped()
        return value
    }

    /// What a call that failed at once throws: `{code, message}`, made into an `Error` by the
    /// prelude (or the stop, as for `answer`).
    private static func failure(_ error: ServiceError, in context: JavaScriptContext) throws(ScriptThrow) -> ScriptThrow {
        var failure = JSONObject([("code", .string(error.code.rawValue)), ("message", .string(error.message))])
        if let details = error.details { failure["details"] = .object(details) }
        return ScriptThrow(try answer(context.makeValue(.object(failure)), in: context))
    }
}
