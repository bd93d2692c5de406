import HybridJSON
import HybridJavaScript
import HybridServices

// The whole contract between the bridge's JavaScript (JavaScript/*.js) and Swift, read in one
// place: every native function the scripts call, with what it takes and answers (here), and
// every function the scripts hand back for Swift to call (EntryPoints.swift). The scripts reach
// Swift through these names only (a test holds them to it).
//
// A native takes one message object with named fields, the way WebViewJavascriptBridge passes
// one message per call — except `call` and `callSync`, the measured hot paths (BENCHMARKS.md):
// each field read from a message is one more engine call taking the engine's lock (seven of
// them cost an awaited call a fifth of its time), so they take their arguments in order.
// Failures a script should see are thrown into it.

/// The natives of prelude.js, patches.js, web-globals.js, web.js, data-globals.js, api.js and
/// db.js, the names of the `native` object they receive.
enum Native: String, CaseIterable {
    // hybrid.* and WebViewJavascriptBridge (prelude.js)

    /// `call(service, params, timeout, resolve, reject, handle, checkedAt, ...values)` → the answer of a
    /// sync service or of an async one that answered without waiting, or `undefined` when
    /// `resolve(value)` or `reject(code, message, details)` will be called from the loop (then
    /// `handle.id`, when a `handle` object was given, is the call's number for `cancelCall`);
    /// throws `{code, message, details?}` when the call fails at once. `timeout` is in
    /// milliseconds, -1 for the service's own; `checkedAt` is the registry generation at which
    /// the prelude found every field of `params` known (see `fields`), or -1, and then
    /// `values` are `params`' values of those fields, in the order `fields` gave them (Swift
    /// reads no field itself: each read would take the engine's lock).
    case call
    /// `cancelCall({id})`: drops the call in flight numbered `id` (its signal aborted), cancelling
    /// its work; its promise is never settled by Swift.
    case cancelCall
    /// `callSync(service, params, checkedAt, ...values)` → the sync service's answer (`checkedAt`
    /// and `values` as for `call`); throws `{code, message, details?}`.
    case callSync
    /// `fields({service})` → `{generation, fields}`: the field names the service accepts (`null`
    /// when it takes any, or does not exist) at registry generation `generation`.
    case fields
    /// `services()` → every service's description, as `hybrid.services()` lists them.
    case services
    /// `ready()`: the script started well (`hybrid.ready()`).
    case ready
    /// `locate({stack})` → the `FILE:LINE:COL` of the first frame of `stack` outside the bridge,
    /// or `undefined`.
    case locate
    /// `respond({id, response})`: a registered handler's answer to the native call `id` (see
    /// `PreludeEntryPoints.dispatch`).
    case respond

    // console, timers, require() (prelude.js)

    /// `log({level, text})`: console output; `level` is log, info, debug, warn or error.
    case log
    /// `reportError({error})`: reports a value thrown where nobody could catch it (a
    /// `queueMicrotask` callback).
    case reportError
    /// `overBudget({site})` → whether the current entry has used its time limit (a job is then
    /// dropped, and the entry reported as a runaway where `site`, an `Error`, was made).
    case overBudget
    /// `timer({callback, delay, repeating, site})` → the timer's number: calls `callback()` after
    /// `delay` ms (every `delay` ms when `repeating`); `site`, an `Error`, locates its failures that have none.
    case timer
    /// `clearTimer({id})`: clears the timer numbered `id`.
    case clearTimer
    /// `resolve({specifier, folder})` → `{path, source}`: the file `require(specifier)` loads in
    /// a module of `folder`; throws an `Error` when it may not be loaded or does not exist.
    case resolve
    /// `compile({source, path, main})` → the module's function `(exports, require, module,
    /// __filename, __dirname)`: for the `main` script, an async one when its top level awaits
    /// (it then returns a promise); throws its syntax error.
    case compile

    // The web globals (web-globals.js, web.js)

    /// `loadWebGlobals()` → `{'url-hosts', 'url-parser', url, web, fetch}`: the functions of the
    /// scripts that define the web globals (url-hosts.js, url-parser.js, url.js, web.js,
    /// fetch.js), evaluated but not called, for web-globals.js to call when one of the globals
    /// is first used; throws what the evaluation threw (a runaway stopped).
    case loadWebGlobals
    /// `now()` → milliseconds since the runtime started: monotonic, below a millisecond
    /// (`performance.now()`).
    case now

    // The api and db globals (data-globals.js)

    /// `loadDataGlobal({name})` → the function of api.js (`name` "api") or db.js ("db"),
    /// evaluated but not called, for data-globals.js to call when the global is first needed;
    /// throws what the evaluation threw (a runaway stopped).
    case loadDataGlobal

    // Hot fixes (patches.js; what hooks do is in docs/hot-fixes.md)

    /// `patchFailureLimit()` → how many failures in a row disable a hook.
    case patchFailureLimit
    /// `hooked({target, live})`: whether a hook that runs is on `target` now.
    case hooked
    /// `checkTarget({kind, name, stack})`: warns on the console when the service or patchable
    /// function a patch names is unknown (yet); `stack` is where the patch was made.
    case checkTarget
    /// `patchFailed({error, note})`: a hook threw `error`; reported like any script error, with
    /// `note` naming the hook.
    case patchFailed
    /// `patchNotice({text})`: a line about the patches themselves (a hook disabled), shown and logged.
    case patchNotice
    /// `callMethod({name, args})` → the patchable Swift function `name`'s own body run on `args`
    /// (`self.ORIGname` in `defineClass`); throws an `Error` whose `code` is `E_NO_METHOD`,
    /// `E_BAD_ARGUMENT` or `E_FAILED`.
    case callMethod
}

/// The `native` object of prelude.js and patches.js: each `Native` run by the part of the
/// runtime that owns what it touches. Holds them unowned: the functions live in the context's
/// heap, which the runtime owns.
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
    /// `loadDataGlobal({name})`, given the name; must not hold the runtime strongly either.
    let loadDataGlobal: (String) throws(ScriptThrow) -> JavaScriptValue
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
                do throws(ServiceError) {
                    let started = try calls.call(calls.serviceName(arguments[0]), parameters: arguments[1], checkedAt: arguments[6].number,
                                                 fieldValues: arguments.values(from: 7), timeout: arguments[2].number,
                                                 resolve: arguments[3], reject: arguments[4])
                    switch started {
                    case .answered(let answer):
                        return context.makeValue(answer)
                    case .inFlight(let id):
                        arguments[5].set("id", to: context.makeNumber(Double(id)))
                        return nil
                    }
                } catch {
                    throw Self.failure(error, in: context)
                }
            }
        case .callSync:
            return { arguments throws(ScriptThrow) in
                do throws(ServiceError) {
                    return context.makeValue(try calls.callSync(calls.serviceName(arguments[0]), parameters: arguments[1],
                                                                checkedAt: arguments[2].number, fieldValues: arguments.values(from: 3)))
                } catch {
                    throw Self.failure(error, in: context)
                }
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
        case .loadDataGlobal:
            return { arguments throws(ScriptThrow) in try loadDataGlobal(arguments[0]["name"].string) }
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

    /// What a call that failed at once throws: `{code, message}`, made into an `Error` by the prelude.
    private static func failure(_ error: ServiceError, in context: JavaScriptContext) -> ScriptThrow {
        var failure = JSONObject([("code", .string(error.code.rawValue)), ("message", .string(error.message))])
        if let details = error.details { failure["details"] = .object(details) }
        return ScriptThrow(context.makeValue(.object(failure)))
    }
}

// MARK: - ui.js

/// The natives of ui.js, which a host app runs (`UINatives`).
enum UINative: String, CaseIterable {
    /// `show({target, push})`: opens `target`, an `app://` URL or a screen document built by the
    /// script (`ui.show`); `push` keeps the current screen under it (`ui.push`).
    case show
    /// `back()`: closes the screen on top (`ui.back`).
    case back
    /// `update({id, props})`: changes the props of the node `id` on the current screen (`ui.update`).
    case update
    /// `component({name, fn})`: registers `fn(props)` → node as the component `name` (`ui.component`).
    case component
    /// `handler({name, fn})`: registers `fn(event)` as the handler `name` (`ui.handler`).
    case handler
    /// `screen()` → the current screen's id, or `null` (`ui.screen`).
    case screen
    /// `get({path})` → the current screen's state at `path` (all of it for `''`), or `null` (`state.get`).
    case get
    /// `set({path, value})`: sets the current screen's state at `path` (`state.set`).
    case set
    /// `watch({path, fn})` → a watcher id: calls `fn(value, changedPath)` when the state at,
    /// inside or around `path` changes (`state.watch`).
    case watch
    /// `storeGet({path})` → the app store at `path` (all of it for `''`), or `null` (`store.get`).
    case storeGet
    /// `storeSet({path, value})`: sets the app store at `path` (`store.set`).
    case storeSet
    /// `storeWatch({path, fn})` → a watcher id: calls `fn(value, previous)` when the store at
    /// `path` changes (`store.watch`).
    case storeWatch
    /// `unwatch({id})`: removes a `state.watch` or `store.watch` watcher (its handle's `remove`).
    case unwatch
    /// `dialog({title, text, buttons, done})`: shows a dialog of `buttons` (`[{id, label}]`)
    /// with the focus in it; `done(id)` once a button is chosen, `done(null)` on Esc, never if
    /// the scripts go away first (`ui.dialog`).
    case dialog
    /// `toast({text, level, ms})`: shows `text` for `ms` milliseconds without taking the focus;
    /// `level` is info, warn or error (`ui.toast`).
    case toast
}

/// A host app's side of the `ui`, `state` and `store` globals (SPEC §3; ui.js builds them on these), for
/// `ScriptRuntime.installUI`. Each runs the `UINative` of its name, on the loop thread.
public struct UINatives {
    /// `show`: the target (URL string or screen document) and whether to push.
    public var show: (_ target: JSONValue, _ push: Bool) throws(NativeError) -> Void
    /// `back`.
    public var back: () -> Void
    /// `update`: the node id and its new props (an object, or whatever the script passed).
    public var update: (_ id: String, _ props: JSONValue) throws(NativeError) -> Void
    /// `component`: the name and the builder function.
    public var component: (_ name: String, _ build: ProtectedValue) -> Void
    /// `handler`: the name and the handler function.
    public var handler: (_ name: String, _ function: ProtectedValue) -> Void
    /// `screen`: the current screen's id, nil without one.
    public var screen: () -> String?
    /// `get`: the state at the path (`.null` when there is none).
    public var get: (_ path: String) -> JSONValue
    /// `set`: the path and the value.
    public var set: (_ path: String, _ value: JSONValue) throws(NativeError) -> Void
    /// `watch`: the path and the callback; answers the watcher's id.
    public var watch: (_ path: String, _ callback: ProtectedValue) -> Int
    /// `storeGet`: the app store at the path (`.null` when there is none).
    public var storeGet: (_ path: String) -> JSONValue
    /// `storeSet`: the path and the value.
    public var storeSet: (_ path: String, _ value: JSONValue) throws(NativeError) -> Void
    /// `storeWatch`: the path and the callback; answers the watcher's id.
    public var storeWatch: (_ path: String, _ callback: ProtectedValue) -> Int
    /// `unwatch`: the id of a watcher to remove.
    public var unwatch: (_ id: Int) -> Void
    /// `dialog`: the title, the text, the buttons (`[{id, label}]`) and the function told the choice.
    public var dialog: (_ title: String, _ text: String, _ buttons: JSONValue, _ done: ProtectedValue) -> Void
    /// `toast`: the text, its level and how many milliseconds it shows.
    public var toast: (_ text: String, _ level: String, _ milliseconds: Double) -> Void

    /// The host's functions, one per `UINative`.
    public init(show: @escaping (_ target: JSONValue, _ push: Bool) throws(NativeError) -> Void, back: @escaping () -> Void,
                update: @escaping (_ id: String, _ props: JSONValue) throws(NativeError) -> Void,
                component: @escaping (_ name: String, _ build: ProtectedValue) -> Void,
                handler: @escaping (_ name: String, _ function: ProtectedValue) -> Void, screen: @escaping () -> String?,
                get: @escaping (_ path: String) -> JSONValue, set: @escaping (_ path: String, _ value: JSONValue) throws(NativeError) -> Void,
                watch: @escaping (_ path: String, _ callback: ProtectedValue) -> Int,
                storeGet: @escaping (_ path: String) -> JSONValue,
                storeSet: @escaping (_ path: String, _ value: JSONValue) throws(NativeError) -> Void,
                storeWatch: @escaping (_ path: String, _ callback: ProtectedValue) -> Int, unwatch: @escaping (_ id: Int) -> Void,
                dialog: @escaping (_ title: String, _ text: String, _ buttons: JSONValue, _ done: ProtectedValue) -> Void,
                toast: @escaping (_ text: String, _ level: String, _ milliseconds: Double) -> Void) {
        (self.show, self.back, self.update, self.component, self.handler, self.screen) = (show, back, update, component, handler, screen)
        (self.get, self.set, self.watch) = (get, set, watch)
        (self.storeGet, self.storeSet, self.storeWatch, self.unwatch) = (storeGet, storeSet, storeWatch, unwatch)
        (self.dialog, self.toast) = (dialog, toast)
    }

    /// A new `native` object for ui.js holding every `UINative`, and nothing else.
    func makeObject(in context: JavaScriptContext) -> JavaScriptValue {
        let native = context.makeObject()
        for name in UINative.allCases { native.define(name.rawValue, function(name)) }
        return native
    }

    private func function(_ native: UINative) -> NativeFunction {
        switch native {
        case .show:
            return { arguments throws(ScriptThrow) in
                try Self.refusing(in: arguments.context) { () throws(NativeError) in try show(arguments[0]["target"].json, arguments[0]["push"].boolean) }
            }
        case .back:
            return { _ in
                back()
                return nil
            }
        case .update:
            return { arguments throws(ScriptThrow) in
                try Self.refusing(in: arguments.context) { () throws(NativeError) in try update(arguments[0]["id"].string, arguments[0]["props"].json) }
            }
        case .component:
            return { arguments in
                component(arguments[0]["name"].string, arguments[0]["fn"].protect())
                return nil
            }
        case .handler:
            return { arguments in
                handler(arguments[0]["name"].string, arguments[0]["fn"].protect())
                return nil
            }
        case .screen:
            return { arguments in screen().map(arguments.context.makeString) ?? arguments.context.null }
        case .get:
            return { arguments in arguments.context.makeValue(get(arguments[0]["path"].string)) }
        case .set:
            return { arguments throws(ScriptThrow) in try Self.setting(arguments, "state.set", with: set) }
        case .watch:
            return { arguments in arguments.context.makeNumber(Double(watch(arguments[0]["path"].string, arguments[0]["fn"].protect()))) }
        case .storeGet:
            return { arguments in arguments.context.makeValue(storeGet(arguments[0]["path"].string)) }
        case .storeSet:
            return { arguments throws(ScriptThrow) in try Self.setting(arguments, "store.set", with: storeSet) }
        case .storeWatch:
            return { arguments in
                arguments.context.makeNumber(Double(storeWatch(arguments[0]["path"].string, arguments[0]["fn"].protect())))
            }
        case .unwatch:
            return { arguments in
                unwatch(Int(arguments[0]["id"].number))
                return nil
            }
        case .dialog:
            return { arguments in
                let message = arguments[0]
                dialog(message["title"].string, message["text"].string, message["buttons"].json, message["done"].protect())
                return nil
            }
        case .toast:
            return { arguments in
                toast(arguments[0]["text"].string, arguments[0]["level"].string, arguments[0]["ms"].number)
                return nil
            }
        }
    }

    /// Runs `set` with the message's path and value, which must be JSON exactly (a function, a
    /// cycle or a BigInt would be stored as something else): else an `E_BAD_VALUE` error naming
    /// the place, from `call`.
    private static func setting(_ arguments: JavaScriptArguments, _ call: String,
                                with set: (String, JSONValue) throws(NativeError) -> Void) throws(ScriptThrow) -> JavaScriptValue? {
        let context = arguments.context
        let path = arguments[0]["path"].string
        let value: JSONValue
        do throws(JSONConversionError) {
            value = try context.exactJSON(from: arguments[0]["value"])
        } catch {
            let place = error.path == "$" ? "the value" : "the value at " + error.path
            throw ScriptThrow(context.makeError("\(call)(\(DiagnosticText.quoted(path)), value): \(place) \(error.problem)", code: "E_BAD_VALUE"))
        }
        return try refusing(in: context) { () throws(NativeError) in try set(path, value) }
    }

    private static func refusing(in context: JavaScriptContext, _ body: () throws(NativeError) -> Void) throws(ScriptThrow) -> JavaScriptValue? {
        do throws(NativeError) {
            try body()
            return nil
        } catch {
            throw ScriptThrow(context.makeError(error.message))
        }
    }
}

/// A native's refusal, thrown into the calling script as an `Error` with this message.
public struct NativeError: Error {
    /// What the script is told.
    public var message: String

    /// A refusal saying `message`.
    public init(_ message: String) {
        self.message = message
    }
}
