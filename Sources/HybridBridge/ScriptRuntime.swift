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
public final class ScriptRuntime: @unchecked Sendable {
    /// The loop scripts run on.
    public let loop: EventLoop
    /// The services scripts may call.
    public let services: ServiceRegistry
    /// Who the scripts are, for permission checks.
    public var caller: ServiceCaller
    /// The JavaScript context.
    public let context: JavaScriptContext
    /// The CPU time one entry into JavaScript may take before it is stopped.
    public let timeLimit: Double
    /// How long `hybrid.call` waits for an async service without an explicit `timeout`.
    public var defaultCallTimeout: Double = 30

    /// Where `console.*` output goes: `(level, text)`, level one of log, info, debug, warn, error.
    public var console: (String, String) -> Void
    /// Where uncaught exceptions, unhandled rejections and runaway scripts are reported.
    public var onError: (ScriptError) -> Void
    /// Called when the script calls `hybrid.ready()`.
    public var onReady: () -> Void = {}

    /// How many failures (uncaught errors, unhandled rejections, runaways) were reported.
    public private(set) var failureCount = 0
    /// Whether the script called `hybrid.ready()`.
    public private(set) var isReady = false

    private var resolver = ModuleResolver(root: ".")
    private var timers: [Int: (id: EventLoop.TimerID, callback: ProtectedValue)] = [:]
    private var nextTimer = 1
    private var pendingCalls: [Int: PendingCall] = [:]
    private var nextCall = 1
    private var responses: [Int: (JSONValue) -> Void] = [:]
    private var nextResponse = 1
    private var dispatcher: ProtectedValue?
    /// Files run as CommonJS modules, whose first line carries the wrapper.
    private var modules: Set<String> = []

    /// Wraps each module; kept on the module's first line so every other line keeps its number
    /// (only columns on line 1 shift, and reports shift them back).
    static let moduleHeader = "(function (exports, require, module, __filename, __dirname) {"
    private var mainLoader: ProtectedValue?
    private var failureSentinel: ProtectedValue?
    private lazy var decoder = JSValueDecoder(context: context)

    private final class PendingCall {
        let name: String
        let resolve: ProtectedValue
        let reject: ProtectedValue
        var timeout: EventLoop.TimerID?
        init(name: String, resolve: ProtectedValue, reject: ProtectedValue) {
            self.name = name
            self.resolve = resolve
            self.reject = reject
        }
    }

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
        return enter(path) { context in
            try context.call(mainLoader, arguments: [context.makeString(path), context.makeString(source)])
        } != nil
    }

    /// Evaluates a snippet (reporting what it throws); returns its value as JSON.
    @discardableResult
    public func evaluate(_ source: String, sourceURL: String = "<eval>") -> JSONValue? {
        enter(sourceURL) { context in context.json(from: try context.evaluate(source, sourceURL: sourceURL)) }
    }

    /// Calls a handler the script registered with `WebViewJavascriptBridge.registerHandler`;
    /// `reply` gets its response (or `{"error": …}` when there is no such handler). Loop thread.
    public func callHandler(_ name: String, data: JSONValue, reply: @escaping (JSONValue) -> Void) {
        guard let dispatcher = dispatcher?.object else { return }
        let id = nextResponse
        nextResponse += 1
        responses[id] = reply
        enter("handler \(name)") { context in
            try context.call(dispatcher, arguments: [context.makeString(name), context.makeValue(data), JSValueMakeNumber(context.ref, Double(id))])
        }
    }

    /// Runs `body` as one entry into JavaScript; reports and returns nil when it fails.
    @discardableResult
    func enter<T>(_ what: String, _ body: (JavaScriptContext) throws -> T) -> T? {
        do {
            return try body(context)
        } catch {
            // Only ScriptErrors come out of the context's calls.
            let error = error as? ScriptError ?? ScriptError(message: "\(error)", location: nil, stack: [])
            if error.isTermination {
                report(ScriptError(message: "stopped: \(what) ran longer than the \(Self.formatSeconds(timeLimit)) limit (a runaway script?)",
                                   location: nil, stack: [], isTermination: true))
            } else {
                report(error)
            }
            return nil
        }
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    func report(_ error: ScriptError) {
        failureCount += 1
        var error = error
        error.location = error.location.map(unwrapped)
        error.stack = error.stack.map(unwrapped)
        onError(error)
    }

    /// `file:1:col` in a module, with the wrapper's columns taken off.
    private func unwrapped(_ location: String) -> String {
        let parts = location.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 2] == "1", let column = Int(parts[parts.count - 1]) else { return location }
        let file = parts.dropLast(2).joined(separator: ":")
        let path = file.split(separator: "@", maxSplits: 1).last.map(String.init) ?? file
        guard modules.contains(path), column > Self.moduleHeader.count else { return location }
        return "\(file):1:\(column - Self.moduleHeader.count)"
    }

    // MARK: The native half

    private func installPrelude() {
        let native = JSObjectMake(context.ref, nil, nil)!
        context.set("moduleHeaderLength", to: JSValueMakeNumber(context.ref, Double(Self.moduleHeader.count)), on: native)
        defineServiceFunctions(on: native)
        defineTimerFunctions(on: native)
        defineModuleFunctions(on: native)
        defineBridgeFunctions(on: native)
        context.onUnhandledRejection(context.makeFunction { [unowned self] context, _, arguments in
            let reason: JSValueRef = arguments.count > 1 ? arguments[1]! : JSValueMakeUndefined(context)!
            var error = self.context.scriptError(from: reason)
            error.message = "unhandled promise rejection: " + error.message
            self.report(error)
            return nil
        })
        do {
            let install = try context.evaluate(Prelude.source, sourceURL: Prelude.sourceURL)
            try context.call(JSValueToObject(context.ref, install, nil)!, arguments: [native])
        } catch {
            preconditionFailure("the bridge prelude failed: \(error.report)")
        }
    }

    private func defineServiceFunctions(on native: JSObjectRef) {
        context.define("call", on: native) { [unowned self] _, _, arguments in
            guard arguments.count >= 5 else { return nil }
            let name = self.context.string(arguments[0]!)
            let requested = JSValueToNumber(self.context.ref, arguments[2]!, nil)
            let pending = self.startCall(name, parameters: self.parameters(arguments[1]!, checkedAt: arguments.count > 5 ? arguments[5] : nil, native: native),
                                         timeout: requested >= 0 ? requested / 1000 : self.defaultCallTimeout,
                                         resolve: arguments[3]!, reject: arguments[4]!)
            return JSValueMakeBoolean(self.context.ref, pending)
        }
        // Success returns the value itself; failure returns the prelude's sentinel and leaves
        // the error in `native.code` and `native.message`, so success allocates nothing extra.
        context.define("callSync", on: native) { [unowned self] _, _, arguments in
            let name = arguments.count > 0 ? self.context.string(arguments[0]!) : ""
            let parameters = self.parameters(arguments.count > 1 ? arguments[1]! : self.context.undefined,
                                             checkedAt: arguments.count > 2 ? arguments[2] : nil, native: native)
            let outcome: Result<JSONValue, ServiceError>
            switch self.services.start(name, parameters: parameters, caller: self.caller, requireSync: true) {
            case .success(.finished(let value)): outcome = Self.encode(value, from: name)
            case .success(.running): outcome = .failure(ServiceError(.failed, "\(name) is asynchronous; call it with hybrid.call"))
            case .failure(let error): outcome = .failure(error)
            }
            switch outcome {
            case .success(let value):
                return self.context.makeValue(value)
            case .failure(let error):
                self.context.set("code", to: self.context.makeString(error.code.rawValue), on: native)
                self.context.set("message", to: self.context.makeString(error.message), on: native)
                return self.failureSentinel?.value
            }
        }
        context.define("setFailureSentinel", on: native) { [unowned self] _, _, arguments in
            self.failureSentinel = arguments.first.map { ProtectedValue($0!, in: self.context) }
            return nil
        }
        context.define("fields", on: native) { [unowned self] _, _, arguments in
            let name = arguments.count > 0 ? self.context.string(arguments[0]!) : ""
            let generation = self.services.generation
            let fields = self.services.fieldNames(of: name).map { JSONValue.array($0.map(JSONValue.string)) } ?? .null
            return self.context.makeValue(.object(JSONObject([("generation", .integer(generation)), ("fields", fields)])))
        }
        context.define("services", on: native) { [unowned self] _, _, _ in
            self.context.makeValue(.array(self.services.descriptions.map(\.json)))
        }
        context.define("ready", on: native) { [unowned self] _, _, _ in
            if !self.isReady {
                self.isReady = true
                self.onReady()
            }
            return nil
        }
    }

    private static func encode(_ value: any Encodable & Sendable, from name: String) -> Result<JSONValue, ServiceError> {
        do {
            return .success(try JSONValueEncoder().encode(value))
        } catch {
            return .failure(ServiceError(.failed, "\(name) returned a value that cannot be sent to scripts: \(error)"))
        }
    }

    /// `checkedAt` is the registry generation at which the prelude checked the field names,
    /// or -1; a stale check is ignored (and the prelude told to drop its cache).
    private func parameters(_ value: JSValueRef, checkedAt: JSValueRef?, native: JSObjectRef) -> ScriptParameters {
        var checked = false
        if let checkedAt, case let generation = JSValueToNumber(context.ref, checkedAt, nil), generation >= 0 {
            checked = Int(generation) == services.generation
            if !checked { context.set("stale", to: JSValueMakeBoolean(context.ref, true), on: native) }
        }
        return ScriptParameters(context: context, value: value, decoder: decoder, fieldsChecked: checked)
    }

    /// Starts a `hybrid.call`: sync services settle at once; async ones run off this thread
    /// and settle when their result is posted back, or when the timeout fires first. Returns
    /// whether the call is still pending.
    private func startCall(_ name: String, parameters: ScriptParameters, timeout: Double, resolve: JSValueRef, reject: JSValueRef) -> Bool {
        let outcome: Result<JSONValue, ServiceError>
        switch services.start(name, parameters: parameters, caller: caller) {
        case .failure(let error):
            outcome = .failure(error)
        case .success(.finished(let value)):
            outcome = Self.encode(value, from: name)
        case .success(.running(let job)):
            let id = nextCall
            nextCall += 1
            let call = PendingCall(name: name, resolve: ProtectedValue(resolve, in: context), reject: ProtectedValue(reject, in: context))
            pendingCalls[id] = call
            loop.beginWork()
            call.timeout = loop.schedule(after: timeout) { [unowned self] in
                let limit = timeout < 1 ? "\(Int((timeout * 1000).rounded())) ms" : Self.formatSeconds(timeout)
                self.settle(id, .failure(ServiceError(.timeout, "\(name) did not answer within \(limit)")))
            }
            Task { [loop] in
                let result: Result<JSONValue, ServiceError>
                do {
                    result = Self.encode(try await job(), from: name)
                } catch {
                    result = .failure(ServiceRegistry.failure(error, in: name))
                }
                loop.post { [weak self] in self?.settle(id, result) }
            }
            return true
        }
        deliver(outcome, name: name, resolve: resolve, reject: reject)
        return false
    }

    private func settle(_ id: Int, _ outcome: Result<JSONValue, ServiceError>) {
        // A call settles once: a result after its timeout (or the reverse) is dropped.
        guard let call = pendingCalls.removeValue(forKey: id) else { return }
        if let timeout = call.timeout { loop.cancel(timeout) }
        loop.endWork()
        deliver(outcome, name: call.name, resolve: call.resolve.value, reject: call.reject.value)
    }

    private func deliver(_ outcome: Result<JSONValue, ServiceError>, name: String, resolve: JSValueRef, reject: JSValueRef) {
        enter("the reply of \(name)") { context in
            switch outcome {
            case .success(let value):
                try context.call(JSValueToObject(context.ref, resolve, nil)!, arguments: [context.makeValue(value)])
            case .failure(let error):
                try context.call(JSValueToObject(context.ref, reject, nil)!,
                                 arguments: [context.makeString(error.code.rawValue), context.makeString(error.message)])
            }
        }
    }

    private func defineTimerFunctions(on native: JSObjectRef) {
        context.define("timer", on: native) { [unowned self] context, _, arguments in
            guard arguments.count >= 3, let callback = arguments[0] else { return nil }
            let delay = JSValueToNumber(context, arguments[1]!, nil) / 1000
            let repeating = JSValueToBoolean(context, arguments[2]!)
            let number = self.nextTimer
            self.nextTimer += 1
            let kept = ProtectedValue(callback, in: self.context)
            let id = self.loop.schedule(after: delay, repeating: repeating) { [unowned self] in
                if !repeating { self.timers[number] = nil }
                self.enter(repeating ? "an interval" : "a timeout") { context in
                    try context.call(JSValueToObject(context.ref, kept.value, nil)!, arguments: [])
                }
            }
            self.timers[number] = (id, kept)
            return JSValueMakeNumber(context, Double(number))
        }
        context.define("clearTimer", on: native) { [unowned self] context, _, arguments in
            guard let first = arguments.first, let number = Int(exactly: JSValueToNumber(context, first!, nil)),
                  let timer = self.timers.removeValue(forKey: number) else { return nil }
            self.loop.cancel(timer.id)
            return nil
        }
        context.define("log", on: native) { [unowned self] _, _, arguments in
            guard arguments.count >= 2 else { return nil }
            self.console(self.context.string(arguments[0]!), self.context.string(arguments[1]!))
            return nil
        }
        context.define("reportError", on: native) { [unowned self] _, _, arguments in
            if let thrown = arguments.first { self.report(self.context.scriptError(from: thrown!)) }
            return nil
        }
    }

    private func defineModuleFunctions(on native: JSObjectRef) {
        context.define("resolve", on: native) { [unowned self] _, _, arguments throws(ScriptThrow) in
            let specifier = arguments.count > 0 ? self.context.string(arguments[0]!) : ""
            let folder = arguments.count > 1 ? self.context.string(arguments[1]!) : "."
            do throws(ModuleResolver.Failure) {
                let module = try self.resolver.resolve(specifier, from: folder)
                return self.context.makeValue(.object(JSONObject([("path", .string(module.path)), ("source", .string(module.source))])))
            } catch {
                throw ScriptThrow(self.context.makeError(error.message))
            }
        }
        context.define("compile", on: native) { [unowned self] _, _, arguments throws(ScriptThrow) in
            guard arguments.count >= 2 else { return nil }
            let source = self.context.string(arguments[0]!)
            let path = self.context.string(arguments[1]!)
            self.modules.insert(path)
            switch self.context.evaluateCatching(Self.moduleHeader + source + "\n})", sourceURL: path) {
            case .success(let function): return function
            case .failure(let thrown): throw thrown
            }
        }
        context.define("setMain", on: native) { [unowned self] _, _, arguments in
            self.mainLoader = arguments.first.map { ProtectedValue($0!, in: self.context) }
            return nil
        }
    }

    private func defineBridgeFunctions(on native: JSObjectRef) {
        context.define("setDispatcher", on: native) { [unowned self] _, _, arguments in
            self.dispatcher = arguments.first.map { ProtectedValue($0!, in: self.context) }
            return nil
        }
        context.define("respond", on: native) { [unowned self] context, _, arguments in
            guard arguments.count >= 2, let id = Int(exactly: JSValueToNumber(context, arguments[0]!, nil)),
                  let reply = self.responses.removeValue(forKey: id) else { return nil }
            reply(self.context.json(from: arguments[1]!))
            return nil
        }
    }
}
