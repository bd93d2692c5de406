import HybridJSON
import HybridJavaScript
import HybridServices

/// Native code calling the handlers scripts registered with
/// `WebViewJavascriptBridge.registerHandler`: each call waits for its handler's answer (through
/// the `respond` native), and gets one, an error if need be. Loop thread only.
final class HandlerCalls {
    /// The prelude's `dispatch(name, data, id)`; nil once the runtime shut down.
    var dispatch: ProtectedValue?

    private let entries: ScriptEntries
    private var replies: [Int: (JSONValue) -> Void] = [:]
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
        let id = nextID
        nextID += 1
        replies[id] = reply
        let result = entries.enter("the handler \(name)") { (context) throws(ScriptError) in
            try dispatch.value.call(making: [{ context.makeString(name) }, { context.makeValue(data) }, { context.makeNumber(Double(id)) }])
        }
        if case .failure(let error) = result, let reply = replies.removeValue(forKey: id) {
            reply(Self.errorReply(.failed, "the handler \(name) failed: \(error.message)"))
        }
    }

    /// Hands the call `id` its handler's response; a second response, or one for a call that
    /// has its answer already, is dropped.
    func respond(to id: Int, with response: JSONValue) {
        replies.removeValue(forKey: id)?(response)
    }

    /// Stops dispatching, and answers every call still waiting with an error.
    func shutdown() {
        dispatch = nil
        let unanswered = replies
        replies.removeAll()
        for reply in unanswered.values { reply(Self.errorReply(.failed, "the script runtime shut down")) }
    }

    private static func errorReply(_ code: ServiceError.Code, _ message: String) -> JSONValue {
        .object(JSONObject([("error", .object(JSONObject([("code", .string(code.rawValue)), ("message", .string(message))])))]))
    }
}
