import CJavaScriptCore
import HybridJSON

/// A JavaScript value, borrowed for the current call: valid while the engine can reach it (an
/// argument, a property of a reachable object, a protected value) and its context lives. Keep
/// one longer as a `ProtectedValue`.
///
/// Reading it costs one engine call per property read (each takes JavaScriptCore's lock), so
/// hot paths ask for what they need once.
public struct JavaScriptValue {
    /// The engine's handle, for C-level fast paths in programs that import JavaScriptCore themselves.
    public let ref: JSValueRef
    /// The context the value lives in. Not retained: a value never outlives its context.
    public unowned(unsafe) let context: JavaScriptContext

    /// Wraps `ref`, a value of `context`.
    public init(_ ref: JSValueRef, in context: JavaScriptContext) {
        self.ref = ref
        self.context = context
    }

    /// What kind of value this is; one engine call, so ask once and keep the answer.
    public enum Kind: Sendable {
        case undefined, null, boolean, number, string, object, other
    }

    /// The value's kind (arrays and functions are objects).
    public var kind: Kind {
        switch ImmediateValue.type(of: ref, in: context.ref) {
        case kJSTypeUndefined: return .undefined
        case kJSTypeNull: return .null
        case kJSTypeBoolean: return .boolean
        case kJSTypeNumber: return .number
        case kJSTypeString: return .string
        case kJSTypeObject: return .object
        default: return .other
        }
    }

    /// Whether the value is `undefined`.
    public var isUndefined: Bool { JSValueIsUndefined(context.ref, ref) }

    /// Whether the value is an array.
    public var isArray: Bool { JSValueIsArray(context.ref, ref) }

    /// Whether the value can be called.
    public var isFunction: Bool {
        guard let object = JSValueToObject(context.ref, ref, nil) else { return false }
        return JSObjectIsFunction(context.ref, object)
    }

    /// `Number(value)`.
    public var number: Double { ImmediateValue.number(of: ref, in: context.ref) }

    /// Whether the value is truthy.
    public var boolean: Bool { JSValueToBoolean(context.ref, ref) }

    /// `String(value)`.
    public var string: String { context.string(ref) }

    /// The value as JSON (see `JavaScriptContext.json(from:)`).
    public var json: JSONValue { context.json(from: ref) }

    /// `value[name]`; `undefined` when there is no such property (or no value to have one).
    public subscript(name: String) -> JavaScriptValue {
        JavaScriptValue(context.property(name, of: ref) ?? context.undefined.ref, in: context)
    }

    /// Sets `value[name]`. Does nothing on a value that is not an object.
    public func set(_ name: String, to value: JavaScriptValue) {
        guard JSValueIsObject(context.ref, ref), let object = JSValueToObject(context.ref, ref, nil) else { return }
        context.set(name, to: value.ref, on: object)
    }

    /// Defines a function property named `name` that runs `body`.
    public func define(_ name: String, _ body: @escaping NativeFunction) {
        set(name, to: context.makeFunction(body))
    }

    /// Calls the value as a function with arguments made one at a time by `makers` (see
    /// `JavaScriptContext.call(_:this:making:)`); `this` is the global object. Throws what the
    /// function throws, and a `ScriptError` naming the problem when the value is no function.
    @discardableResult
    public func call(making makers: [() -> JavaScriptValue] = []) throws(ScriptError) -> JavaScriptValue {
        guard let function = JSValueToObject(context.ref, ref, nil), JSObjectIsFunction(context.ref, function) else {
            throw ScriptError(message: "TypeError: \(string) is not a function", location: nil, stack: [])
        }
        return JavaScriptValue(try context.call(function, making: makers.map { make in { make().ref } }), in: context)
    }

    /// Keeps the value alive past the current call.
    public func protect() -> ProtectedValue {
        ProtectedValue(self)
    }
}

/// A Swift closure callable from JavaScript. Throwing a `ScriptThrow` makes the JavaScript
/// call throw that value; returning `nil` returns `undefined`.
public typealias NativeFunction = (_ arguments: JavaScriptArguments) throws(ScriptThrow) -> JavaScriptValue?

/// The arguments a script passed to a native function; reading past the last gives `undefined`.
public struct JavaScriptArguments {
    private let buffer: UnsafeBufferPointer<JSValueRef?>
    /// The context of the call.
    public unowned(unsafe) let context: JavaScriptContext

    init(_ buffer: UnsafeBufferPointer<JSValueRef?>, in context: JavaScriptContext) {
        self.buffer = buffer
        self.context = context
    }

    /// How many arguments the script passed.
    public var count: Int { buffer.count }

    /// The arguments from `start` on (none when the script passed fewer), at the C level:
    /// valid during the call.
    public func values(from start: Int) -> UnsafeBufferPointer<JSValueRef?> {
        start < buffer.count ? UnsafeBufferPointer(rebasing: buffer[start...]) : UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The argument at `index`, or `undefined`.
    public subscript(index: Int) -> JavaScriptValue {
        guard index < buffer.count, let value = buffer[index] else { return context.undefined }
        return JavaScriptValue(value, in: context)
    }
}
