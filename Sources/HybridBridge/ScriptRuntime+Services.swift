import CJavaScriptCore
import HybridJSON
import HybridJavaScript
import HybridServices

/// The native half of `hybrid.*`.
extension ScriptRuntime {
    func defineServiceFunctions(on native: JSObjectRef) {
        context.define("setSentinels", on: native) { [unowned self] _, _, arguments in
            guard arguments.count >= 2 else { return nil }
            failed = ProtectedValue(arguments[0]!, in: context)
            pending = ProtectedValue(arguments[1]!, in: context)
            return nil
        }
        // call(name, params, timeoutMs, resolve, reject, checkedAt): a sync answer is returned
        // for the prelude to settle; PENDING means resolve/reject are called later from the loop.
        context.define("call", on: native) { [unowned self] _, _, arguments in
            guard arguments.count >= 6 else { return nil }
            let name = context.string(arguments[0]!)
            let requested = JSValueToNumber(context.ref, arguments[2]!, nil)
            let parameters = self.parameters(arguments[1]!, checkedAt: arguments[5], native: native)
            switch services.start(name, parameters: parameters, caller: caller) {
            case .failure(let error):
                return failure(error, on: native)
            case .success(.finished(let value)):
                return answer(ServiceRegistry.encode(value, from: name), on: native)
            case .success(.running(let job)):
                let limit = requested >= 0 ? requested / 1000 : services.description(of: name)?.timeout
                start(job, name: name, timeout: limit, resolve: arguments[3]!, reject: arguments[4]!)
                return pending?.value
            }
        }
        context.define("callSync", on: native) { [unowned self] _, _, arguments in
            let name = arguments.count > 0 ? context.string(arguments[0]!) : ""
            let parameters = self.parameters(arguments.count > 1 ? arguments[1]! : context.undefined,
                                             checkedAt: arguments.count > 2 ? arguments[2] : nil, native: native)
            switch services.start(name, parameters: parameters, caller: caller, requireSync: true) {
            case .success(.finished(let value)): return answer(ServiceRegistry.encode(value, from: name), on: native)
            case .success(.running): return nil
            case .failure(let error): return failure(error, on: native)
            }
        }
        context.define("fields", on: native) { [unowned self] _, _, arguments in
            let name = arguments.count > 0 ? context.string(arguments[0]!) : ""
            let generation = services.generation
            let fields = services.fieldNames(of: name).map { JSONValue.array($0.map(JSONValue.string)) } ?? .null
            return context.makeValue(.object(JSONObject([("generation", .integer(generation)), ("fields", fields)])))
        }
        context.define("locate", on: native) { [unowned self] _, _, arguments in
            let stack = arguments.first.map { context.string($0!) } ?? ""
            return ScriptLocation.caller(in: stack, modules: modules, headerLength: Self.moduleHeader.count)
                .map(context.makeString) ?? context.undefined
        }
        context.define("services", on: native) { [unowned self] _, _, _ in
            context.makeValue(.array(services.descriptions.map(\.json)))
        }
        context.define("ready", on: native) { [unowned self] _, _, _ in
            if !isReady {
                isReady = true
                onReady()
            }
            return nil
        }
    }

    /// The value to return for a sync answer: the value itself, or FAILED with the error left
    /// in `native.code` and `native.message` (so success allocates nothing extra).
    private func answer(_ outcome: Result<JSONValue, ServiceError>, on native: JSObjectRef) -> JSValueRef? {
        switch outcome {
        case .success(let value): return context.makeValue(value)
        case .failure(let error): return failure(error, on: native)
        }
    }

    private func failure(_ error: ServiceError, on native: JSObjectRef) -> JSValueRef? {
        context.set("code", to: context.makeString(error.code.rawValue), on: native)
        context.set("message", to: context.makeString(error.message), on: native)
        return failed?.value
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

    /// Runs an async service off this thread; its answer, or the timeout, settles the call on
    /// the loop, whichever comes first (the other is dropped, and a timed-out job is cancelled).
    private func start(_ job: @escaping @Sendable () async throws -> any Encodable & Sendable, name: String,
                       timeout: Double?, resolve: JSValueRef, reject: JSValueRef) {
        let id = nextCall
        nextCall += 1
        let call = PendingCall(name: name, resolve: ProtectedValue(resolve, in: context), reject: ProtectedValue(reject, in: context))
        pendingCalls[id] = call
        loop.beginWork()
        if let timeout {
            call.timeout = loop.schedule(after: timeout) { [weak self] in
                self?.settle(id, .failure(ServiceError(.timeout, "\(name) did not answer within \(formatDuration(timeout))")))
            }
        }
        call.task = Task { [loop] in
            let result: Result<JSONValue, ServiceError>
            do {
                result = ServiceRegistry.encode(try await job(), from: name)
            } catch {
                result = .failure(ServiceRegistry.failure(error, in: name))
            }
            loop.post { [weak self] in self?.settle(id, result) }
        }
    }

    private func settle(_ id: Int, _ outcome: Result<JSONValue, ServiceError>) {
        // A call settles once: a result after its timeout (or the reverse) is dropped.
        guard let call = pendingCalls.removeValue(forKey: id) else { return }
        if let timeout = call.timeout { loop.cancel(timeout) }
        call.task?.cancel()
        loop.endWork()
        enter("the answer of \(call.name)") { (context) throws(ScriptError) in
            switch outcome {
            case .success(let value):
                try context.call(call.resolve.object!, making: [{ context.makeValue(value) }])
            case .failure(let error):
                try context.call(call.reject.object!, making: [{ context.makeString(error.code.rawValue) }, { context.makeString(error.message) }])
            }
        }
    }
}
