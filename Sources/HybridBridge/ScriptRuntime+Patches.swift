import CJavaScriptCore
import Foundation
import HybridJSON
import HybridJavaScript
import HybridServices
import Logging

/// Hot fixes (SPEC §3 `patch.*` and `defineClass`, SPEC §4 `app.patchable`): the Swift half.
///
/// The patch table lives in the prelude (`Prelude.patchSource`): hooks per target in
/// registration order; before hooks first, then replace hooks composed (the last registered
/// outermost, each getting the earlier composition as `original`), then after hooks, each
/// seeing the result so far. A hook that throws is reported here, naming its target, and
/// costs only itself: a before hook is skipped for that call, an after hook leaves the result
/// unchanged, a replace hook's call runs its `original` instead. After `patchFailureLimit`
/// failures in a row (a success resets the count; a runaway counts too) the hook is disabled
/// and the original runs again, which is reported as well.
///
/// Swift keeps only which targets have a live hook, so a call nobody patched never enters
/// JavaScript, and the entry points for calls that start in Swift: patchable functions
/// (`callPatchable`), `ui.handler` handlers (`invoke(_:patchedAs:as:with:)`) and screens'
/// `call` actions (`callService`). Calls that start in scripts (`hybrid.call`, `callSync`,
/// `WebViewJavascriptBridge`) consult the table in the prelude. Everything here runs on the
/// loop thread, like the rest of the runtime.
extension ScriptRuntime {
    /// How many failures in a row disable a hook.
    public static let patchFailureLimit = 3

    static let patchLogger = Logger(label: "hybrid.patch")

    /// Whether a hook that runs is on `target` (`service:NAME`, `handler:NAME`, `method:Type.name`).
    public func hasHooks(on target: String) -> Bool {
        hookedTargets.contains(target)
    }

    /// Whether a hook that runs is on the patchable function `name` (`method:NAME`); a set lookup.
    public func hasHooks(onMethod name: String) -> Bool {
        hookedMethods.contains(name)
    }

    /// The functions declared patchable for scripts of this runtime (shared with the host
    /// through the service registry; see `PatchableMethods`).
    public var patchableMethods: PatchableMethods { .of(services) }

    // MARK: Calls that start in Swift

    /// Calls the patchable function `name` with `input`: through the hooks on `method:NAME`
    /// when a script patched it (the input goes to JavaScript as one argument, its JSON, and the
    /// result comes back decoded as `Out`), else `body` directly, with no JSON round trip.
    ///
    /// A result that does not decode is a failure of the hook that made it (reported with the
    /// path of the bad field); the original's value is used instead, as it is when the entry
    /// into JavaScript fails (a runaway). What `body` throws, when it escapes the hooks, is
    /// thrown here. Loop thread.
    public func callPatchable<In: Codable, Out: Codable, Failure: Error>(
        _ name: String, _ input: In, body: @escaping (In) throws(Failure) -> Out
    ) throws(Failure) -> Out {
        guard hookedMethods.contains(name) else { return try body(input) }
        return try runHooks(name, input, PatchableSignature<In>.single, body)
    }

    /// `callPatchable` for a function without input: its hooks get no arguments.
    public func callPatchable<Out: Codable, Failure: Error>(_ name: String, body: @escaping () throws(Failure) -> Out) throws(Failure) -> Out {
        guard hookedMethods.contains(name) else { return try body() }
        return try runHooks(name, (), PatchableSignature<Void>.none) { (_: Void) throws(Failure) in try body() }
    }

    /// `invoke(_:as:with:)` through the hooks on `target` (`handler:NAME` for a `ui.handler`).
    @discardableResult
    public func invoke(_ function: ProtectedValue, patchedAs target: String, as what: String, with arguments: [JSONValue]) -> Result<JSONValue, ScriptError> {
        guard hookedTargets.contains(target), let runner = patchFunction("handler") else {
            return invoke(function, as: what, with: arguments)
        }
        return enter(what) { (context) throws(ScriptError) in
            context.json(from: try context.call(runner, making: [
                { context.makeString(target) }, { function.value }, { context.makeValue(.array(arguments)) },
            ]))
        }
    }

    /// Calls a service the way a script's `hybrid.call` does, through the hooks on
    /// `service:NAME` (a screen's `call` action uses this when that target is patched);
    /// `completion` gets the answer on the loop, once. False when the call could not start
    /// (the entry into JavaScript failed and was reported): the caller calls the service itself.
    public func callService(_ name: String, parameters: JSONValue, completion: @escaping (Result<JSONValue, ServiceError>) -> Void) -> Bool {
        guard let runner = patchFunction("service") else { return false }
        let answer = ServiceAnswer(completion)
        let started = enter("a call of \(name)") { (context) throws(ScriptError) in
            try context.call(runner, making: [{ context.makeString(name) }, { context.makeValue(parameters) }, {
                // done(ok, value) or done(ok, code, message); it keeps no strong hold on the context.
                context.makeFunction { [unowned self] ref, _, arguments in
                    guard arguments.count >= 2 else { return nil }
                    if JSValueToBoolean(ref, arguments[0]!) {
                        answer.finish(.success(self.context.json(from: arguments[1]!)))
                    } else {
                        let code = ServiceError.Code(rawValue: self.context.string(arguments[1]!)) ?? .failed
                        let message = arguments.count > 2 ? self.context.string(arguments[2]!) : ""
                        answer.finish(.failure(ServiceError(code, message)))
                    }
                    return nil
                }
            }])
        }
        guard case .success = started else {
            // An answer arriving after all must not settle what the caller now runs itself.
            answer.finish(nil)
            return false
        }
        return true
    }

    // MARK: Natives

    func definePatchFunctions(on native: JSObjectRef) {
        context.set("patchFailureLimit", to: JSValueMakeNumber(context.ref, Double(Self.patchFailureLimit)), on: native)
        context.define("setPatchRunner", on: native) { [unowned self] _, _, arguments in
            patchRunner = arguments.first.map { ProtectedValue($0!, in: context) }
            return nil
        }
        // hooked(target, live): whether a hook that runs is on target.
        context.define("hooked", on: native) { [unowned self] _, _, arguments in
            guard arguments.count >= 2 else { return nil }
            let target = context.string(arguments[0]!)
            let method = target.hasPrefix("method:") ? String(target.dropFirst("method:".count)) : nil
            if JSValueToBoolean(context.ref, arguments[1]!) {
                hookedTargets.insert(target)
                if let method { hookedMethods.insert(method) }
            } else {
                hookedTargets.remove(target)
                if let method { hookedMethods.remove(method) }
            }
            return nil
        }
        context.define("checkTarget", on: native) { [unowned self] _, _, arguments in
            guard arguments.count >= 3 else { return nil }
            warnIfUnknown(kind: context.string(arguments[0]!), name: context.string(arguments[1]!), stack: context.string(arguments[2]!))
            return nil
        }
        // patchFailed(error, note): a hook threw; reported like any script error, with the note.
        context.define("patchFailed", on: native) { [unowned self] _, _, arguments in
            guard arguments.count >= 2 else { return nil }
            var error = context.scriptError(from: arguments[0]!)
            error.message += " (\(context.string(arguments[1]!)))"
            report(error)
            return nil
        }
        context.define("patchNotice", on: native) { [unowned self] _, _, arguments in
            if let text = arguments.first { patchNotice(context.string(text!)) }
            return nil
        }
        // callMethod(name, args): a declared function's own body (`self.ORIGname` in defineClass).
        context.define("callMethod", on: native) { [unowned self] _, _, arguments throws(ScriptThrow) in
            let name = arguments.count > 0 ? context.string(arguments[0]!) : ""
            let values = arguments.count > 1 ? context.json(from: arguments[1]!).arrayValue ?? [] : []
            guard let original = patchableMethods.original(named: name) else {
                let hint = Suggestion.hint(for: name, in: patchableMethods.names)
                throw ScriptThrow(context.makeError("no Swift function named \"\(name)\" is declared patchable\(hint)", code: "E_NO_METHOD"))
            }
            return try answer(original(values))
        }
    }

    /// A reported line about the patches themselves (a hook disabled): shown by the app like a
    /// script error, and logged.
    func patchNotice(_ text: String) {
        Self.patchLogger.warning("\(text)")
        onError(ScriptError(message: text, location: nil, stack: []))
    }

    /// A console warning for a patch on a service nobody registered or a function nobody
    /// declared patchable (yet: both may come later), with a did-you-mean.
    private func warnIfUnknown(kind: String, name: String, stack: String) {
        let known: [String]
        let missing: String
        switch kind {
        case "service":
            known = services.descriptions.map(\.name)
            missing = "no service named \"\(name)\" is registered"
        case "method":
            known = patchableMethods.names
            missing = "no Swift function named \"\(name)\" is declared patchable"
        default:
            return
        }
        guard !known.contains(name) else { return }
        let location = ScriptLocation.caller(in: stack, modules: modules, headerLength: Self.moduleHeader.count)
        let text = "\(location.map { $0 + ": " } ?? "")patch on \(kind):\(name): \(missing) (yet)\(Suggestion.hint(for: name, in: known))"
        Self.patchLogger.warning("\(text)")
        console("warn", text)
    }

    /// The value for a script of what a Swift original answered, or the error to throw.
    private func answer(_ outcome: Result<JSONValue, PatchableFailure>) throws(ScriptThrow) -> JSValueRef {
        switch outcome {
        case .success(let value): return context.makeValue(value)
        case .failure(let failure): throw ScriptThrow(context.makeError(failure.message, code: failure.code))
        }
    }

    // MARK: Method hooks

    private func patchFunction(_ name: String) -> JSObjectRef? {
        guard let runner = patchRunner?.value, let function = context.property(name, of: runner) else { return nil }
        return JSValueToObject(context.ref, function, nil)
    }

    private func runHooks<In, Out: Codable, Failure: Error>(
        _ name: String, _ input: In, _ signature: PatchableSignature<In>, _ body: @escaping (In) throws(Failure) -> Out
    ) throws(Failure) -> Out {
        let target = "method:" + name
        let arguments: [JSONValue]
        do {
            arguments = try signature.encode(input)
        } catch {
            report(ScriptError(message: "\(target): the input cannot be passed to scripts (\(error)); the original ran unpatched", location: nil, stack: []))
            return try body(input)
        }
        guard let runner = patchFunction("method") else { return try body(input) }
        let call = MethodCall<Out, Failure>(arguments: arguments)
        let outcome = enter("a call of \(name)") { (context) throws(ScriptError) in
            context.json(from: try context.call(runner, making: [{ context.makeString(target) }, {
                self.originalFunction { values in
                    signature.run(name, body, on: values) { outcome in
                        switch outcome {
                        case .success(let value): if values == call.arguments { call.value = value }
                        case .failure(let error): call.error = error
                        }
                    }
                }
            }, { context.makeValue(.array(arguments)) }]))
        }
        switch outcome {
        case .success(.array(let parts)) where parts.count == 2:
            do {
                return try JSONValueDecoder().decode(Out.self, from: parts[0])
            } catch {
                let problem = (error as? DecodingError).map(describeDecodingError)
                let field = problem?.field.map { "field \"\($0)\": " } ?? ""
                report(ScriptError(message: "\(target): the patched result does not fit \(Out.self): \(field)\(problem?.message ?? "\(error)"); the original's value is used",
                                   location: nil, stack: []))
                if case .integer(let hook) = parts[1], hook != 0 { countPatchFailure(hook, revoking: true) }
            }
        case .success:
            // The original threw and nothing caught it: the Swift caller gets its error.
            if let error = call.error { throw error }
        case .failure:
            break
        }
        if let value = call.value { return value }
        return try body(input)
    }

    /// A script function running a Swift original on the JSON of its arguments.
    private func originalFunction(_ run: @escaping ([JSONValue]) -> Result<JSONValue, PatchableFailure>) -> JSObjectRef {
        context.makeFunction { [unowned self] _, _, arguments throws(ScriptThrow) in
            try answer(run(arguments.map { context.json(from: $0!) }))
        }
    }

    /// After the time limit stopped the outermost entry: the patch hook that was running, if
    /// any (the runaway is one of its failures), with the table's running state reset.
    func runawayHook() -> (target: String, id: Int)? {
        guard let runaway = patchFunction("runaway"),
              let value = try? context.call(runaway, arguments: []),
              case .array(let parts) = context.json(from: value), parts.count == 2,
              let target = parts[0].stringValue, case .integer(let id) = parts[1] else { return nil }
        return (target, id)
    }

    /// Counts a failure of hook `id`; `revoking` when it was first counted as a success.
    func countPatchFailure(_ id: Int, revoking: Bool) {
        guard let fail = patchFunction("fail") else { return }
        enter("the patch table") { (context) throws(ScriptError) in
            try context.call(fail, making: [{ JSValueMakeNumber(context.ref, Double(id)) }, { JSValueMakeBoolean(context.ref, revoking) }])
        }
    }
}

/// One call of a patched Swift function: what its original did when the hooks ran it.
private final class MethodCall<Out, Failure: Error> {
    let arguments: [JSONValue]
    /// The original's value for the call's own arguments.
    var value: Out?
    /// What the original threw, for the Swift caller when it escapes the hooks.
    var error: Failure?

    init(arguments: [JSONValue]) {
        self.arguments = arguments
    }
}

/// A `call` action's completion, called once; `nil` abandons it.
private final class ServiceAnswer {
    private var completion: ((Result<JSONValue, ServiceError>) -> Void)?

    init(_ completion: @escaping (Result<JSONValue, ServiceError>) -> Void) {
        self.completion = completion
    }

    func finish(_ result: Result<JSONValue, ServiceError>?) {
        let completion = completion
        self.completion = nil
        if let result { completion?(result) }
    }
}

/// Why a Swift original gave a script no value.
public enum PatchableFailure: Error, Sendable {
    /// The arguments do not decode into the function's input (`E_BAD_ARGUMENT`: the caller's fault).
    case badArguments(String)
    /// The function threw, or its value cannot be sent to scripts (`E_FAILED`).
    case failed(String)

    /// The `code` of the error a script sees.
    public var code: String {
        switch self {
        case .badArguments: return "E_BAD_ARGUMENT"
        case .failed: return "E_FAILED"
        }
    }

    /// What went wrong, naming the function (and the field, for bad arguments).
    public var message: String {
        switch self {
        case .badArguments(let message), .failed(let message): return message
        }
    }
}

/// How a patchable function's input travels to scripts: as one argument (its JSON) or none.
struct PatchableSignature<In> {
    let encode: (In) throws -> [JSONValue]
    let decode: (_ arguments: [JSONValue], _ name: String) throws(PatchableFailure) -> In

    /// Runs `body` (the function `name`) on the JSON of its arguments; `observe` sees what the
    /// body itself answered or threw.
    func run<Out: Encodable, Failure: Error>(_ name: String, _ body: (In) throws(Failure) -> Out, on arguments: [JSONValue],
                                             observe: (Result<Out, Failure>) -> Void = { _ in }) -> Result<JSONValue, PatchableFailure> {
        let input: In
        do throws(PatchableFailure) {
            input = try decode(arguments, name)
        } catch {
            return .failure(error)
        }
        do throws(Failure) {
            let value = try body(input)
            observe(.success(value))
            return PatchableMethods.encode(value, of: name)
        } catch {
            observe(.failure(error))
            return .failure(.failed("\(name) threw: \(error)"))
        }
    }
}

extension PatchableSignature where In: Codable {
    static var single: Self {
        Self(encode: { [try JSONValueEncoder().encode($0)] }, decode: { arguments, name throws(PatchableFailure) in
            guard arguments.count == 1 else {
                throw .badArguments("\(name) takes 1 argument, not \(arguments.count)")
            }
            do {
                return try JSONValueDecoder().decode(In.self, from: arguments[0])
            } catch let error as DecodingError {
                let (field, message) = describeDecodingError(error)
                throw .badArguments("\(name): \(field.map { "field \"\($0)\": " } ?? "")\(message)")
            } catch {
                throw .badArguments("\(name): \(error)")
            }
        })
    }
}

extension PatchableSignature where In == Void {
    static var none: Self {
        Self(encode: { _ in [] }, decode: { arguments, name throws(PatchableFailure) in
            guard arguments.isEmpty else { throw .badArguments("\(name) takes no arguments, not \(arguments.count)") }
        })
    }
}

/// The Swift functions declared patchable (SPEC §4 `app.patchable`), by name, each with a way
/// to run its own body on JSON arguments (what `self.ORIGname` in `defineClass` calls, and what
/// tells a patch on `method:NAME` that the name is real).
///
/// There is one table per `ServiceRegistry`, because a host declares its functions before any
/// script runtime exists, and the runtime it starts later reaches the host's Swift side through
/// that registry (as it reaches its services). Thread-safe; a later declaration of a name
/// replaces the earlier one.
public final class PatchableMethods: @unchecked Sendable {
    /// Runs a function on the JSON of its arguments.
    public typealias Original = ([JSONValue]) -> Result<JSONValue, PatchableFailure>

    private let lock = NSLock()
    private var originals: [String: Original] = [:]

    /// The table for scripts that call `services`.
    public static func of(_ services: ServiceRegistry) -> PatchableMethods {
        tables.table(for: services)
    }

    /// Declares `name` with a body taking one Codable input.
    public func declare<In: Codable, Out: Codable, Failure: Error>(_ name: String, _ body: @escaping (In) throws(Failure) -> Out) {
        declare(name, PatchableSignature<In>.single, body)
    }

    /// Declares `name` with a body taking no input.
    public func declare<Out: Codable, Failure: Error>(_ name: String, _ body: @escaping () throws(Failure) -> Out) {
        declare(name, PatchableSignature<Void>.none) { (_: Void) throws(Failure) in try body() }
    }

    private func declare<In, Out: Codable, Failure: Error>(_ name: String, _ signature: PatchableSignature<In>,
                                                          _ body: @escaping (In) throws(Failure) -> Out) {
        let original: Original = { arguments in signature.run(name, body, on: arguments) }
        lock.withLock { originals[name] = original }
    }

    /// The declared names, sorted.
    public var names: [String] {
        lock.withLock { originals.keys.sorted() }
    }

    /// The body of `name` on JSON arguments, if declared.
    public func original(named name: String) -> Original? {
        lock.withLock { originals[name] }
    }

    static func encode<Out: Encodable>(_ value: Out, of name: String) -> Result<JSONValue, PatchableFailure> {
        do {
            return .success(try JSONValueEncoder().encode(value))
        } catch {
            return .failure(.failed("\(name) returned a value that cannot be sent to scripts: \(error)"))
        }
    }

    private static let tables = Tables()

    /// The tables by registry; an entry goes when its registry does.
    private final class Tables: @unchecked Sendable {
        private struct Entry {
            weak var services: ServiceRegistry?
            let methods: PatchableMethods
        }

        private let lock = NSLock()
        private var entries: [ObjectIdentifier: Entry] = [:]

        func table(for services: ServiceRegistry) -> PatchableMethods {
            lock.withLock {
                let key = ObjectIdentifier(services)
                // A dead registry's identifier can be reused by a new one: never hand its table on.
                if let entry = entries[key], entry.services === services { return entry.methods }
                entries = entries.filter { $0.value.services != nil }
                let methods = PatchableMethods()
                entries[key] = Entry(services: services, methods: methods)
                return methods
            }
        }
    }
}
