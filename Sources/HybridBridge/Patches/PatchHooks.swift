import HybridJSON
import HybridJavaScript
import HybridServices

/// Hot fixes (SPEC §3 `patch.*` and `defineClass`, SPEC §4 `app.patchable`): the Swift half of
/// the patch table in patches.js. What hooks do — their order, what a failing hook costs, when
/// one is disabled — is described once, in docs/hot-fixes.md.
///
/// Swift keeps only which targets have a hook that runs, so a call nobody patched never enters
/// JavaScript, and patches.js's entry points (`PatchEntryPoint`) for the calls that start in
/// Swift: patchable functions (`callPatchable`), `ui.handler` handlers (`invoke`) and screens'
/// `call` actions (`callService`). Calls that start in scripts consult the table in JavaScript.
/// Loop thread only.
final class PatchHooks {
    /// How many failures in a row disable a hook.
    static let failureLimit = 3

    /// patches.js's calls for Swift; nil once the runtime shut down (patched functions called
    /// after that run their Swift bodies).
    var entryPoints: EntryPoints<PatchEntryPoint>?

    private let entries: ScriptEntries
    private let services: ServiceRegistry
    /// Targets with a hook that runs, and the patchable function names among them.
    private var hookedTargets: Set<String> = []
    private var hookedMethods: Set<String> = []

    init(entries: ScriptEntries, services: ServiceRegistry) {
        self.entries = entries
        self.services = services
    }

    /// Whether a hook that runs is on `target` (`service:NAME`, `handler:NAME`, `method:Type.name`).
    func hasHooks(on target: String) -> Bool {
        hookedTargets.contains(target)
    }

    /// Whether a hook that runs is on the patchable function `name`; a set lookup.
    func hasHooks(onMethod name: String) -> Bool {
        hookedMethods.contains(name)
    }

    /// Forgets every hook, and stops calling into patches.js.
    func shutdown() {
        entryPoints = nil
        hookedTargets.removeAll()
        hookedMethods.removeAll()
    }

    // MARK: What patches.js tells Swift

    /// Whether a hook that runs is on `target` now.
    func setHooked(_ target: String, live: Bool) {
        let method = target.hasPrefix("method:") ? String(target.dropFirst("method:".count)) : nil
        if live {
            hookedTargets.insert(target)
            if let method { hookedMethods.insert(method) }
        } else {
            hookedTargets.remove(target)
            if let method { hookedMethods.remove(method) }
        }
    }

    /// A console warning for a patch on a service nobody registered or a function nobody
    /// declared patchable (yet: both may come later), with a did-you-mean; `stack` is where the
    /// patch was made.
    func warnIfUnknown(kind: String, name: String, stack: String) {
        let known: [String]
        let missing: String
        switch kind {
        case "service":
            known = services.descriptions.map(\.name)
            missing = "no service named \"\(name)\" is registered"
        case "method":
            known = services.patchableMethods.names
            missing = "no Swift function named \"\(name)\" is declared patchable"
        default:
            return
        }
        guard !known.contains(name) else { return }
        let location = entries.locator.caller(in: stack)
        let text = "\(location.map { $0 + ": " } ?? "")patch on \(kind):\(name): \(missing) (yet)\(Suggestion.hint(for: name, in: known))"
        // Said once, where the script's own warnings go.
        entries.console("warn", text)
    }

    /// A hook threw `error`: reported like any script error, with `note` naming the hook.
    func hookFailed(_ error: JavaScriptValue, note: String) {
        var failure = entries.context.scriptError(from: error)
        failure.message += " (\(note))"
        entries.report(failure)
    }

    /// A line about the patches themselves (a hook disabled): shown like a script error.
    func notice(_ text: String) {
        entries.announce(text)
    }

    /// Runs the declared patchable function `name`'s own body on `arguments` (`self.ORIGname`
    /// in `defineClass`); what it answers, or the error to throw into the calling script.
    func callOriginal(_ name: String, arguments: [JSONValue]) throws(ScriptThrow) -> JavaScriptValue {
        let context = entries.context
        guard let original = services.patchableMethods.original(named: name) else {
            let hint = Suggestion.hint(for: name, in: services.patchableMethods.names)
            throw ScriptThrow(context.makeError("no Swift function named \"\(name)\" is declared patchable\(hint)", code: "E_NO_METHOD"))
        }
        return try Self.answer(original(arguments), in: context)
    }

    /// The value for a script of what a Swift original answered, or the error to throw.
    private static func answer(_ outcome: Result<JSONValue, PatchableFailure>, in context: JavaScriptContext) throws(ScriptThrow) -> JavaScriptValue {
        switch outcome {
        case .success(let value): return context.makeValue(value)
        case .failure(let failure): throw ScriptThrow(context.makeError(failure.message, code: failure.code))
        }
    }

    // MARK: Calls that start in Swift

    /// `ScriptRuntime.invoke(_:patchedAs:as:with:)`: `function` through the hooks on `target`.
    func invoke(_ function: ProtectedValue, patchedAs target: String, as what: String, with arguments: [JSONValue]) -> Result<JSONValue, ScriptError>? {
        guard hookedTargets.contains(target), let handler = entryPoints?[.handler] else { return nil }
        return entries.enter(what) { (context) throws(ScriptError) in
            try handler.value.call(making: [{ context.makeString(target) }, { function.value }, { context.makeValue(.array(arguments)) }]).json
        }
    }

    /// `ScriptRuntime.callService`: the service `name` called the way `hybrid.call` calls it.
    func callService(_ name: String, parameters: JSONValue, completion: @escaping (Result<JSONValue, ServiceError>) -> Void) -> Bool {
        guard let service = entryPoints?[.service] else { return false }
        let answer = ServiceAnswer(completion)
        let started = entries.enter("a call of \(name)") { (context) throws(ScriptError) in
            try service.value.call(making: [{ context.makeString(name) }, { context.makeValue(parameters) }, {
                // done(ok, value) or done(ok, code, message); it keeps no strong hold on the context.
                context.makeFunction { arguments in
                    if arguments[0].boolean {
                        answer.finish(.success(arguments[1].json))
                    } else {
                        let code = ServiceError.Code(rawValue: arguments[1].string) ?? .failed
                        let message = arguments.count > 2 ? arguments[2].string : ""
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

    /// `ScriptRuntime.callPatchable`: the patchable function `name` through its hooks.
    func callPatchable<In, Out: Codable, Failure: Error>(
        _ name: String, _ input: In, _ signature: PatchableSignature<In>, _ body: @escaping (In) throws(Failure) -> Out
    ) throws(Failure) -> Out {
        let target = "method:" + name
        let arguments: [JSONValue]
        do {
            arguments = try signature.encode(input)
        } catch {
            entries.report(ScriptError(message: "\(target): the input cannot be passed to scripts (\(error)); the original ran unpatched", location: nil, stack: []))
            return try body(input)
        }
        guard let method = entryPoints?[.method] else { return try body(input) }
        let call = MethodCall<Out, Failure>(arguments: arguments)
        let outcome = entries.enter("a call of \(name)") { (context) throws(ScriptError) in
            try method.value.call(making: [{ context.makeString(target) }, {
                self.originalFunction { values in
                    signature.run(name, body, on: values) { outcome in
                        switch outcome {
                        case .success(let value): if values == call.arguments { call.value = value }
                        case .failure(let error): call.error = error
                        }
                    }
                }
            }, { context.makeValue(.array(arguments)) }]).json
        }
        switch outcome {
        case .success(.array(let parts)) where parts.count == 2:
            do {
                return try JSONValueDecoder().decode(Out.self, from: parts[0])
            } catch {
                let problem = (error as? DecodingError).map(describeDecodingError)
                let field = problem?.field.map { "field \"\($0)\": " } ?? ""
                entries.report(ScriptError(message: "\(target): the patched result does not fit \(Out.self): \(field)\(problem?.message ?? "\(error)"); the original's value is used",
                                           location: nil, stack: []))
                if case .integer(let hook) = parts[1], hook != 0 { countFailure(of: hook, revoking: true) }
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
    private func originalFunction(_ run: @escaping ([JSONValue]) -> Result<JSONValue, PatchableFailure>) -> JavaScriptValue {
        // The function keeps no strong hold on the context: it lives in the context's heap.
        entries.context.makeFunction { arguments throws(ScriptThrow) in
            try Self.answer(run((0..<arguments.count).map { arguments[$0].json }), in: arguments.context)
        }
    }

    // MARK: Runaways

    /// After the time limit stopped the outermost entry: the patch hook that was running, if
    /// any (the runaway is one of its failures), with the table's running state reset.
    func findRunaway() -> ScriptEntries.Runaway? {
        guard let runaway = entryPoints?[.runaway],
              let value = try? runaway.value.call(),
              case .array(let parts) = value.json, parts.count == 2,
              let target = parts[0].stringValue, case .integer(let id) = parts[1] else { return nil }
        return ScriptEntries.Runaway(culprit: "a patch hook on \(target)") { [weak self] in
            self?.countFailure(of: id, revoking: false)
        }
    }

    /// Counts a failure of hook `id`; `revoking` when it was first counted as a success.
    private func countFailure(of id: Int, revoking: Bool) {
        guard let fail = entryPoints?[.fail] else { return }
        entries.enter("the patch table") { (context) throws(ScriptError) in
            try fail.value.call(making: [{ context.makeNumber(Double(id)) }, { context.makeBoolean(revoking) }])
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
