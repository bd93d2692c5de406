import Foundation
import HybridEventLoop
import HybridJSON
import HybridJavaScript
import HybridServices
import Logging

/// Runs scripts against native services: one JavaScriptCore context on one event loop, with
/// the SPEC §3 globals (`hybrid`, `WebViewJavascriptBridge`, `console`, timers, `require`,
/// `patch`, `defineClass`), built by the bridge's JavaScript (`BridgeScript`) on the natives
/// declared in `Natives.swift`.
///
/// It coordinates parts that each own their state: `ScriptEntries` (every entry into
/// JavaScript, and the reports), `ServiceCalls`, `ScriptTimers`, `ModuleLoader`,
/// `HandlerCalls` and `PatchHooks`. Everything happens on the loop's thread (other threads only
/// `post` to the loop), which every public method checks. Release a runtime on its loop
/// thread, or call `shutdown()` there first.
public final class ScriptRuntime: @unchecked Sendable {
    /// The loop scripts run on.
    public let loop: EventLoop
    /// Called when the script calls `hybrid.ready()`, the first time.
    public var onReady: () -> Void = {}
    /// Whether the script called `hybrid.ready()`.
    public private(set) var isReady = false

    private let entries: ScriptEntries
    private let calls: ServiceCalls
    private let timers: ScriptTimers<ScriptTimer>
    private let modules: ModuleLoader
    private let handlers: HandlerCalls
    private let hooks: PatchHooks
    /// api.js's and db.js's functions (`loadData`, `deliver`), through data-globals.js; set
    /// once the bridge's JavaScript ran.
    private var dataEntryPoints: EntryPoints<DataEntryPoint>?
    private var isShutDown = false

    /// A runtime whose scripts call `services` as `caller`; `timeLimit` is the CPU time one
    /// entry into JavaScript may take before it is stopped (time spent in sync services called
    /// from that entry counts too).
    public init(services: ServiceRegistry, caller: ServiceCaller = .host, loop: EventLoop = EventLoop(), timeLimit: Double = 1) {
        self.loop = loop
        let consoleLogger = Logger(label: "hybrid.console")
        let scriptLogger = Logger(label: "hybrid.script")
        entries = ScriptEntries(context: JavaScriptContext(), timeLimit: timeLimit, console: { level, text in
            switch level {
            case "error": consoleLogger.error("\(text)")
            case "warn": consoleLogger.warning("\(text)")
            case "debug": consoleLogger.debug("\(text)")
            default: consoleLogger.info("\(text)")
            }
        }, onError: { error in scriptLogger.error("\(error.report)") })
        calls = ServiceCalls(services: services, caller: caller, entries: entries, loop: loop)
        timers = ScriptTimers(loop: loop) { [entries] timer, repeating in
            let result = entries.enter(repeating ? "an interval" : "a timeout", at: { entries.locator.caller(in: timer.site.value["stack"].string) }) { (_) throws(ScriptError) in
                try timer.callback.value.call()
            }
            guard case .failure(let error) = result else { return true }
            return !error.isTermination
        }
        modules = ModuleLoader(entries: entries)
        handlers = HandlerCalls(entries: entries)
        hooks = PatchHooks(entries: entries, services: services)
        entries.findRunaway = { [unowned hooks] in hooks.findRunaway() }
        installPrelude()
    }

    deinit {
        shutdown()
    }

    /// The JavaScript context.
    public var context: JavaScriptContext { entries.context }
    /// The services scripts may call.
    public var services: ServiceRegistry { calls.services }
    /// Who the scripts are, for permission checks.
    public var caller: ServiceCaller {
        get { calls.caller }
        set { calls.caller = newValue }
    }
    /// The CPU time one entry into JavaScript may take before it is stopped.
    public var timeLimit: Double { entries.timeLimit }
    /// Where `console.*` output goes: `(level, text)`, level one of log, info, debug, warn, error.
    public var console: (String, String) -> Void {
        get { entries.console }
        set { entries.console = newValue }
    }
    /// Where uncaught exceptions, unhandled rejections and runaway scripts are reported.
    public var onError: (ScriptError) -> Void {
        get { entries.onError }
        set { entries.onError = newValue }
    }
    /// How many failures (uncaught errors, unhandled rejections, runaways) were reported.
    public var failureCount: Int { entries.failureCount }

    /// The patch table's stand-in first (the prelude consults the table), then the prelude;
    /// each hands back the functions Swift calls into it. Then the accessors of the web
    /// globals and of the `api` and `db` globals, on top of the prelude. The scripts behind
    /// the patch table and these globals wait until first needed (`lazyScript(_:)`,
    /// `webGlobalScripts()`).
    private func installPrelude() {
        context.onUnhandledRejection(context.makeFunction { [unowned entries] arguments in
            var error = arguments.context.scriptError(from: arguments[1])
            let reason = error.message.hasPrefix("uncaught ") ? String(error.message.dropFirst("uncaught ".count)) : error.message
            error.message = "unhandled promise rejection: " + reason
            entries.reportUnhandledRejection(error)
            return nil
        })
        let native = BridgeNatives(entries: entries, calls: calls, timers: timers, modules: modules, handlers: handlers, hooks: hooks,
                                   ready: { [unowned self] in becomeReady() },
                                   loadWebGlobals: { [unowned self] () throws(ScriptThrow) in try webGlobalScripts() },
                                   loadScript: { [unowned self] name throws(ScriptThrow) in try lazyScript(name) }).makeObject().protect()
        do {
            let patches = try Self.run(.patchGlobals, in: context, with: [native])
            hooks.entryPoints = EntryPoints(patches["forSwift"])
            let prelude = EntryPoints<PreludeEntryPoint>(try Self.run(.prelude, in: context, with: [native, patches["forPrelude"].protect()]))
            handlers.dispatch = prelude[.dispatch]
            modules.loadMain = prelude[.loadMain]
            let forgetFields = prelude[.forgetFields]
            calls.onStaleFields = { _ = try? forgetFields.value.call() }
            _ = try Self.run(.webGlobals, in: context, with: [native])
            dataEntryPoints = EntryPoints(try Self.run(.dataGlobals, in: context, with: [native, prelude[.serviceError]]))
        } catch {
            preconditionFailure("the bridge's JavaScript failed: \(error.report)")
        }
    }

    /// The functions of the web globals' scripts, evaluated but not called, by the scripts'
    /// names (`url-hosts`, `url-parser`, `url`, `web`, `fetch`), the first time a script uses
    /// one of the globals; what the evaluation throws (a runaway stopped) is thrown into that
    /// script.
    private func webGlobalScripts() throws(ScriptThrow) -> JavaScriptValue {
        // Protected while the next ones are evaluated: the collector cannot see Swift's values.
        let functions = context.makeObject().protect()
        for script in [BridgeScript.urlHosts, .urlParser, .url, .web, .fetch] {
            functions.value.set(script.rawValue, to: try function(of: script))
        }
        return functions.value
    }

    /// The function of the script behind the `api` or `db` global or the patch table (`name`
    /// "api", "db" or "patches"), evaluated but not called, the first time it is needed; what
    /// the evaluation throws (a runaway stopped) is thrown into the script that needed it.
    private func lazyScript(_ name: String) throws(ScriptThrow) -> JavaScriptValue {
        let script: BridgeScript
        switch name {
        case "api": script = .api
        case "db": script = .db
        case "patches": script = .patches
        default: throw ScriptThrow(context.makeError("no bridge script named \(name) loads when first needed"))
        }
        return try function(of: script)
    }

    /// The function `script` evaluates to, not called; what the evaluation throws is thrown
    /// on unchanged, for the script that needed it.
    private func function(of script: BridgeScript) throws(ScriptThrow) -> JavaScriptValue {
        try context.evaluateCatching(script.source, sourceURL: script.sourceURL).get()
    }

    /// Evaluates `script` (a function expression) and calls it with `arguments`.
    private static func run(_ script: BridgeScript, in context: JavaScriptContext, with arguments: [ProtectedValue]) throws(ScriptError) -> JavaScriptValue {
        try context.evaluate(script.source, sourceURL: script.sourceURL).call(making: arguments.map { argument in { argument.value } })
    }

    private func becomeReady() {
        guard !isReady else { return }
        isReady = true
        onReady()
    }

    /// Stops the program where a caller is off the loop's thread: the engine and everything
    /// here belong to that one thread.
    private func checkThread(_ function: StaticString = #function) {
        precondition(loop.mayTouchLoopState(), "ScriptRuntime.\(function) called off its loop's thread")
    }

    // MARK: Running scripts

    /// Runs the script at `path` as the main CommonJS module; `require` resolves inside its
    /// folder. Returns false (after reporting) when it threw or ran away.
    @discardableResult
    public func runMain(path: String) -> Bool {
        checkThread()
        return modules.runMain(path: path)
    }

    /// The syntax error of the script at `path` (compiled as `runMain` and `require` compile
    /// it, never run), or nil when it has none: `hybrid validate` checks a bundle's scripts so.
    public func syntaxError(inScriptAt path: String) -> ScriptError? {
        checkThread()
        return modules.syntaxError(inScriptAt: path)
    }

    /// The syntax errors of the scripts at `paths`, checked by a runtime of their own on `loop`
    /// (the calling thread's): nothing of them runs, nothing is left behind.
    public static func syntaxErrors(inScriptsAt paths: [String], loop: EventLoop = EventLoop()) -> [ScriptError] {
        let checker = ScriptRuntime(services: ServiceRegistry(), loop: loop)
        defer { checker.shutdown() }
        return paths.compactMap(checker.syntaxError(inScriptAt:))
    }

    /// Runs `body` with the async service calls it starts owned by `owner` (a screen): they go
    /// with it (`cancelCalls(keepingOwners:)`). SPEC §7.2: calls made while a screen's handler
    /// runs belong to that screen.
    public func withCallOwner<T>(_ owner: ObjectIdentifier?, _ body: () -> T) -> T {
        checkThread()
        let outer = calls.owner
        calls.owner = owner
        defer { calls.owner = outer }
        return body()
    }

    /// Cancels the calls of owners not in `owners` (screens that closed): their connections
    /// close, and their promises settle neither way, so nothing of theirs runs or is reported.
    public func cancelCalls(keepingOwners owners: Set<ObjectIdentifier>) {
        checkThread()
        calls.cancel(keepingOwners: owners)
        handlers.drop(keepingOwners: owners)
    }

    /// Hands the script's `db.watch` started under `id` its new `rows`, or the `error` (`{code,
    /// message}`) that ended it, as one entry into JavaScript.
    public func deliverQueryResult(watch id: Int, rows: JSONValue, error: JSONValue) {
        checkThread()
        guard let deliver = dataEntryPoints?[.deliver] else { return }
        entries.enter("the db.watch callback") { (context) throws(ScriptError) in
            _ = try deliver.value.call(making: [{ context.makeNumber(Double(id)) }, { context.makeValue(rows) }, { context.makeValue(error) }])
        }
    }

    /// Loads a screen's data block (SPEC §7.4) through the script's `api.call`, so interceptors,
    /// reformers and the API's in-flight policy apply, as a call of the screen `owner`: `reply`
    /// gets `{answer: {data, raw, page, first, lastPage, stale, fromCache, requestId}}` or
    /// `{error: {code, message, …}}`, and nothing once the screen closed.
    /// - Parameter request: `{api, params, reformer?, next?}`; `next` is the last answer's
    ///   `{raw, page, first}` when the next page is wanted.
    public func loadData(_ request: JSONValue, owner: ObjectIdentifier, reply: @escaping (JSONValue) -> Void) {
        checkThread()
        guard let dataEntryPoints else { return }
        withCallOwner(owner) {
            handlers.call(dataEntryPoints[.loadData], as: "a data block of \(request["api"]?.stringValue ?? "?")", data: request, owner: owner, reply: reply)
        }
    }

    /// Evaluates a snippet (reporting what it throws); returns its value as JSON.
    @discardableResult
    public func evaluate(_ source: String, sourceURL: String = "<eval>") -> JSONValue? {
        checkThread()
        return try? entries.enter(sourceURL) { (context) throws(ScriptError) in
            try context.evaluate(source, sourceURL: sourceURL).json
        }.get()
    }

    /// Installs the `ui` and `state` globals (SPEC §3) on a host app's `natives`.
    public func installUI(_ natives: UINatives) {
        checkThread()
        let native = natives.makeObject(in: context).protect()
        entries.enter(BridgeScript.ui.sourceURL) { (context) throws(ScriptError) in
            _ = try Self.run(.ui, in: context, with: [native])
        }
    }

    /// Calls a handler the script registered with `WebViewJavascriptBridge.registerHandler`;
    /// `reply` gets its response, or `{"error": …}` when there is no such handler or it fails
    /// before answering.
    public func callHandler(_ name: String, data: JSONValue, reply: @escaping (JSONValue) -> Void) {
        checkThread()
        handlers.call(name, data: data, reply: reply)
    }

    /// Calls a script function kept by the host (a handler, a watcher) as one entry into
    /// JavaScript; what it throws is reported and returned as a failure.
    @discardableResult
    public func invoke(_ function: ProtectedValue, as what: String, with arguments: [JSONValue]) -> Result<JSONValue, ScriptError> {
        checkThread()
        return entries.enter(what) { (context) throws(ScriptError) in
            try function.value.call(making: arguments.map { argument in { context.makeValue(argument) } }).json
        }
    }

    /// Ends everything in flight: timers stop, pending calls are dropped (their work is
    /// cancelled), unanswered handler calls get an error, hooks are forgotten (patched
    /// functions run their Swift bodies). Safe to call twice.
    public func shutdown() {
        guard !isShutDown else { return }
        checkThread()
        isShutDown = true
        timers.clearAll()
        calls.cancelAll()
        handlers.shutdown()
        modules.loadMain = nil
        hooks.shutdown()
    }
}

/// Hot fixes (SPEC §3 `patch.*`, SPEC §4 `app.patchable`): what hooks do is described in
/// docs/hot-fixes.md; `PatchHooks` runs calls that start in Swift through them.
extension ScriptRuntime {
    /// Whether a hook that runs is on `target` (`service:NAME`, `handler:NAME`, `method:Type.name`).
    public func hasHooks(on target: String) -> Bool {
        checkThread()
        return hooks.hasHooks(on: target)
    }

    /// Whether a hook that runs is on the patchable function `name` (`method:NAME`).
    public func hasHooks(onMethod name: String) -> Bool {
        checkThread()
        return hooks.hasHooks(onMethod: name)
    }

    /// Calls the patchable function `name` with `input`: through the hooks on `method:NAME`
    /// when a script patched it (the input goes to JavaScript as one argument, its JSON, and the
    /// result comes back decoded as `Out`), else `body` directly, with no JSON round trip. What
    /// `body` throws, when it escapes the hooks, is thrown here.
    public func callPatchable<In: Codable, Out: Codable, Failure: Error>(
        _ name: String, _ input: In, body: @escaping (In) throws(Failure) -> Out
    ) throws(Failure) -> Out {
        checkThread()
        guard hooks.hasHooks(onMethod: name) else { return try body(input) }
        return try hooks.callPatchable(name, input, PatchableSignature<In>.single, body)
    }

    /// `callPatchable` for a function without input: its hooks get no arguments.
    public func callPatchable<Out: Codable, Failure: Error>(_ name: String, body: @escaping () throws(Failure) -> Out) throws(Failure) -> Out {
        checkThread()
        guard hooks.hasHooks(onMethod: name) else { return try body() }
        return try hooks.callPatchable(name, (), PatchableSignature<Void>.none) { (_: Void) throws(Failure) in try body() }
    }

    /// `invoke(_:as:with:)` through the hooks on `target` (`handler:NAME` for a `ui.handler`).
    @discardableResult
    public func invoke(_ function: ProtectedValue, patchedAs target: String, as what: String, with arguments: [JSONValue]) -> Result<JSONValue, ScriptError> {
        checkThread()
        return hooks.invoke(function, patchedAs: target, as: what, with: arguments) ?? invoke(function, as: what, with: arguments)
    }

    /// Calls a service the way a script's `hybrid.call` does, through the hooks on
    /// `service:NAME` (a screen's `call` action uses this when that target is patched);
    /// `completion` gets the answer on the loop, once. False when the call could not start
    /// (the entry into JavaScript failed and was reported): the caller calls the service itself.
    public func callService(_ name: String, parameters: JSONValue, completion: @escaping (Result<JSONValue, ServiceError>) -> Void) -> Bool {
        checkThread()
        return hooks.callService(name, parameters: parameters, completion: completion)
    }
}
