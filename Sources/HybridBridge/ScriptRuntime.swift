import CJavaScriptCore
import Foundation
import HybridEventLoop
import HybridJSON
import HybridJavaScript
import HybridServices
import Logging

/// Runs scripts against native services: one JavaScriptCore context on one event loop, with
/// the SPEC §3 globals (`hybrid`, `WebViewJavascriptBridge`, `console`, timers, `require`).
///
/// Everything here happens on the loop's thread; other threads only `post` to the loop.
/// Every entry from native code into JavaScript goes through `enter`, which applies the time
/// limit's verdict and reports what a script threw, so a bad script never stops the app.
/// Release a runtime on its loop thread, or call `shutdown()` there first.
public final class ScriptRuntime: @unchecked Sendable {
    /// The loop scripts run on.
    public let loop: EventLoop
    /// The services scripts may call.
    public let services: ServiceRegistry
    /// Who the scripts are, for permission checks.
    public var caller: ServiceCaller
    /// The JavaScript context.
    public let context: JavaScriptContext
    /// The CPU time one entry into JavaScript may take before it is stopped. Time spent in
    /// sync services called from that entry counts too.
    public let timeLimit: Double

    /// Where `console.*` output goes: `(level, text)`, level one of log, info, debug, warn, error.
    public var console: (String, String) -> Void
    /// Where uncaught exceptions, unhandled rejections and runaway scripts are reported.
    public var onError: (ScriptError) -> Void
    /// Called when the script calls `hybrid.ready()`.
    public var onReady: () -> Void = {}

    /// How many failures (uncaught errors, unhandled rejections, runaways) were reported.
    public private(set) var failureCount = 0
    /// Whether the script called `hybrid.ready()`.
    public internal(set) var isReady = false

    var resolver = ModuleResolver(root: ".")
    var modules: Set<String> = []
    var timers: [Int: (id: EventLoop.TimerID, callback: ProtectedValue)] = [:]
    var nextTimer = 1
    var pendingCalls: [Int: PendingCall] = [:]
    var nextCall = 1
    var responses: [Int: (JSONValue) -> Void] = [:]
    var nextResponse = 1
    var dispatcher: ProtectedValue?
    /// The prelude's entry points for patched calls that start in Swift.
    var patchRunner: ProtectedValue?
    /// Targets with a hook that runs, and the method names among them (see `+Patches`).
    var hookedTargets: Set<String> = []
    var hookedMethods: Set<String> = []
    var mainLoader: ProtectedValue?
    var failed: ProtectedValue?
    var pending: ProtectedValue?
    /// What is running now, innermost last: a fallback location for values thrown without one.
    var entries: [String] = []
    /// The nested entry the time limit stopped, until the outermost one ends.
    var stoppedInside: String?
    lazy var decoder = JSValueDecoder(context: context)
    var isShutDown = false

    final class PendingCall {
        let name: String
        let resolve: ProtectedValue
        let reject: ProtectedValue
        var timeout: EventLoop.TimerID?
        var task: Task<Void, Never>?

        init(name: String, resolve: ProtectedValue, reject: ProtectedValue) {
            self.name = name
            self.resolve = resolve
            self.reject = reject
        }
    }

    /// Wraps each module; kept on the module's first line so every other line keeps its number
    /// (only columns on line 1 shift, and `ScriptLocation` shifts them back).
    static let moduleHeader = "(function (exports, require, module, __filename, __dirname) {"

    /// A runtime whose scripts call `services` as `caller`.
    public init(services: ServiceRegistry, caller: ServiceCaller = .host, loop: EventLoop = EventLoop(), timeLimit: Double = 1) {
        self.services = services
        self.caller = caller
        self.loop = loop
        self.timeLimit = timeLimit
        context = JavaScriptContext()
        let consoleLogger = Logger(label: "hybrid.console")
        console = { level, text in
            switch level {
            case "error": consoleLogger.error("\(text)")
            case "warn": consoleLogger.warning("\(text)")
            case "debug": consoleLogger.debug("\(text)")
            default: consoleLogger.info("\(text)")
            }
        }
        let scriptLogger = Logger(label: "hybrid.script")
        onError = { error in scriptLogger.error("\(error.report)") }
        context.limitExecutionTime(to: timeLimit)
        installPrelude()
    }

    deinit {
        shutdown()
    }


    // MARK: Running scripts

    /// Runs the script at `path` as the main CommonJS module; `require` resolves inside its
    /// folder. Returns false (after reporting) when it threw or ran away.
    @discardableResult
    public func runMain(path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else {
            report(ScriptError(message: "cannot read the script", location: path, stack: []))
            return false
        }
        let folder = (path as NSString).deletingLastPathComponent
        resolver = ModuleResolver(root: folder.isEmpty ? "." : folder)
        guard let mainLoader = mainLoader?.object else { return false }
        let source = String(decoding: data, as: UTF8.self)
        let result = enter(path) { (context) throws(ScriptError) in
            try context.call(mainLoader, making: [{ context.makeString(path) }, { context.makeString(source) }])
        }
        return (try? result.get()) != nil
    }

    /// Evaluates a snippet (reporting what it throws); returns its value as JSON.
    @discardableResult
    public func evaluate(_ source: String, sourceURL: String = "<eval>") -> JSONValue? {
        try? enter(sourceURL) { (context) throws(ScriptError) in
            context.json(from: try context.evaluate(source, sourceURL: sourceURL))
        }.get()
    }

    /// Calls a handler the script registered with `WebViewJavascriptBridge.registerHandler`;
    /// `reply` gets its response, or `{"error": …}` when there is no such handler or it fails
    /// before answering. Loop thread.
    public func callHandler(_ name: String, data: JSONValue, reply: @escaping (JSONValue) -> Void) {
        guard let dispatcher = dispatcher?.object else { return }
        let id = nextResponse
        nextResponse += 1
        responses[id] = reply
        let result = enter("the handler \(name)") { (context) throws(ScriptError) in
            try context.call(dispatcher, making: [{ context.makeString(name) }, { context.makeValue(data) },
                                                  { JSValueMakeNumber(context.ref, Double(id)) }])
        }
        if case .failure(let error) = result, let reply = responses.removeValue(forKey: id) {
            reply(Self.errorReply(.failed, "the handler \(name) failed: \(error.message)"))
        }
    }

    static func errorReply(_ code: ServiceError.Code, _ message: String) -> JSONValue {
        .object(JSONObject([("error", .object(JSONObject([("code", .string(code.rawValue)), ("message", .string(message))])))]))
    }

    /// Ends everything in flight: timers stop, pending calls are dropped (their work is
    /// cancelled), unanswered handler calls get an error. Loop thread; safe to call twice.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        for timer in timers.values { loop.cancel(timer.id) }
        timers.removeAll()
        for call in pendingCalls.values {
            call.task?.cancel()
            if let timeout = call.timeout { loop.cancel(timeout) }
            loop.endWork()
        }
        pendingCalls.removeAll()
        let unanswered = responses
        responses.removeAll()
        for reply in unanswered.values { reply(Self.errorReply(.failed, "the script runtime shut down")) }
        dispatcher = nil
        mainLoader = nil
        // Patched functions called after this run their Swift bodies.
        patchRunner = nil
        hookedTargets.removeAll()
        hookedMethods.removeAll()
    }

    // MARK: Entering JavaScript

    /// Runs `body` as one entry into JavaScript; reports a failure before returning it.
    ///
    /// An entry can be nested (a script called native code that called back in: a patched
    /// function inside a sync service). When the time limit stops a nested one, JavaScriptCore
    /// ends the outermost one as well, so the runaway is reported once, there, under the
    /// innermost name.
    @discardableResult
    func enter<T>(_ what: String, _ body: (JavaScriptContext) throws(ScriptError) -> T) -> Result<T, ScriptError> {
        entries.append(what)
        defer { entries.removeLast() }
        let result: Result<T, ScriptError>
        do {
            result = .success(try body(context))
        } catch {
            result = .failure(error)
        }
        if entries.count > 1 {
            if case .failure(let error) = result {
                if error.isTermination { stoppedInside = stoppedInside ?? what } else { report(error) }
            }
            return result
        }
        let stopped = stoppedInside
        stoppedInside = nil
        switch result {
        case .failure(let error) where error.isTermination || stopped != nil:
            reportRunaway(in: stopped ?? what)
        case .failure(let error):
            report(error)
        case .success:
            if let stopped { reportRunaway(in: stopped) }
        }
        return result
    }

    /// Reports that the time limit stopped `what`; a runaway inside a patch hook is one of that
    /// hook's failures.
    private func reportRunaway(in what: String) {
        let hook = runawayHook()
        let culprit = hook.map { "a patch hook on \($0.target) (in \(what))" } ?? what
        report(ScriptError(message: "stopped: \(culprit) ran longer than the \(formatDuration(timeLimit)) limit (a runaway script?)",
                           location: nil, stack: [], isTermination: true))
        if let hook { countPatchFailure(hook.id, revoking: false) }
    }

    /// Reports a failure with its location and stack in the script's own terms: frames of the
    /// prelude and of native code dropped, module first-line columns unshifted.
    func report(_ error: ScriptError) {
        failureCount += 1
        onError(ScriptLocation.clean(error, modules: modules, headerLength: Self.moduleHeader.count,
                                     fallback: entries.last { $0.hasSuffix(".js") }))
    }
}
