import HybridJSON
import HybridJavaScript
import HybridServices

/// Native code calling the handlers scripts registered with
/// `WebViewJavascriptBridge.registerHandler`, and the bridge's own functions that answer the
/// same way (api.js's `loadData`): each call waits for its answer (through the `respond`
/// native), and gets one, an error if need be — unless the screen it was made for closed,
/// when it gets none (SPEC §7.2). Loop thread only.
final class HandlerCalls {
    /// The prelude's `dispatch(name, data, id)`; nil once the runtime shut down.
    var dispatch: ProtectedValue?

    private let entries: ScriptEntries
    private var replies: [Int: (JSONValue) -> Void] = [:]
    /// The screen each call was made for, when it was made for one.
    private var owners: [Int: ObjectIdentifier] = [:]
    private var nextID = 1

    init(entries: ScriptEntries) {
        self.entries = entries
    }

    /// How many calls wait for their handler's answer.
    var waiting: Int { replies.count }

    /// Calls the handler `name` with `data`; `reply` gets its response, or `{"error": …}` when
    /// there is no such handler or it fails before answering.
    func call(_ name: String, data: JSONValue, reply: @escaping (JSONValue) -> Void) {
        guard let dispatch else { return }
        start(as: "the handler \(name)", owner: nil, reply: reply) { (context, id) throws(ScriptError) in
            try dispatch.value.call(making: [{ context.makeString(name) }, { context.makeValue(data) }, { context.makeNumber(Double(id)) }])
        }
    }

    /// Calls `function(data, id)`, a bridge function that answers through `respond`, for the
    /// screen `owner`; `reply` gets its response, or `{"error": …}` when it fails before answering.
    func call(_ function: ProtectedValue, as what: String, data: JSONValue, owner: ObjectIdentifier?, reply: @escaping (JSONValue) -> Void) {
        guard dispatch != nil else { return }
        start(as: what, owner: owner, reply: reply) { (context, id) throws(ScriptError) in
            try function.value.call(making: [{ context.makeValue(data) }, { context.makeNumber(Double(id)) }])
        }
    }

    private func start(as what: String, owner: ObjectIdentifier?, reply: @escaping (JSONValue) -> Void,
                       _ body: (JavaScriptContext, Int) throws(ScriptError) -> JavaScriptValue) {
        let id = nextID
        nextID += 1
        replies[id] = reply
        owners[id] = owner
        let result = entries.enter(what) { (context) throws(ScriptError) in try body(context, id) }
        if case .failure(let error) = result, let reply = replies.removeValue(forKey: id) {
            owners[id] = nil
            reply(Self.errorReply(.failed, "\(what) failed: \(error.message)"))
        }
    }

    /// Forgets the calls made for screens not in `owners` (closed): they get no answer.
    func drop(keepingOwners kept: Set<ObjectIdentifier>) {
        for (id, owner) in owners where !kept.contains(owner) {
            owners[id] = nil
            replies[id] = nil
        }
    }

    /// Hands the call `id` its handler's response; a second response, or one for a call that
    /// has its answer already, is dropped.
    func respond(to id: Int, with response: JSONValue) {
        owners[id] = nil
        replies.removeValue(forKey: id)?(response)
    }

    /// Stops dispatching, and answers every call still waiting with an error.
    func shutdown() {
        dispatch = nil
        let unanswered = replies
        replies.removeAll()
        owners.removeAll()
        for reply in unanswered.values { reply(Self.errorReply(.failed, "the script runtime shut down")) }
    }

    private static func errorReply(_ code: ServiceError.Code, _ message: String) -> JSONValue {
        .object(JSONObject([("error", .object(JSONObject([("code", .string(code.rawValue)), ("message", .string(message))])))]))
    }
}
