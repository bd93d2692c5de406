import HybridJSON
import HybridJavaScript
import HybridServices

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
