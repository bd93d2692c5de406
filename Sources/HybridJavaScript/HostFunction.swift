import CJavaScriptCore

/// A Swift closure callable from JavaScript at the C level: `(this, arguments) throws -> result`,
/// for fast paths in programs that import JavaScriptCore themselves (`NativeFunction` is the
/// Swift-level one). Throwing a `ScriptThrow` makes the JavaScript call throw that value.
public typealias HostFunctionBody = (_ context: JSContextRef, _ this: JSObjectRef?, _ arguments: UnsafeBufferPointer<JSValueRef?>) throws(ScriptThrow) -> JSValueRef?

/// A value to throw into JavaScript from a native function.
public struct ScriptThrow: Error {
    /// The value thrown (usually an `Error` object).
    public var value: JavaScriptValue

    /// Throws `value` into the calling script.
    public init(_ value: JavaScriptValue) {
        self.value = value
    }
}

/// The closure kept alive by a function object and released by its finalizer.
private final class HostFunctionBox {
    let body: HostFunctionBody
    init(_ body: @escaping HostFunctionBody) { self.body = body }
}

/// One JSClass for every host function: `JSObjectMakeFunctionWithCallback` cannot capture, so
/// the closure rides in the object's private data.
// A JSClassRef is immutable once created and JavaScriptCore locks around its use.
nonisolated(unsafe) private let hostFunctionClass: JSClassRef = {
    var definition = kJSClassDefinitionEmpty
    definition.className = UnsafeRawPointer(("HybridHostFunction" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    definition.callAsFunction = { context, function, this, count, arguments, exception in
        guard let context, let function, let data = JSObjectGetPrivate(function) else { return nil }
        // Borrowed, not retained (two atomic operations a call): the function object holds the
        // box while it runs.
        let result = Unmanaged<HostFunctionBox>.fromOpaque(data)._withUnsafeGuaranteedRef { box -> Result<JSValueRef?, ScriptThrow> in
            do throws(ScriptThrow) {
                return .success(try box.body(context, this, UnsafeBufferPointer(start: arguments, count: count)))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value):
            return value ?? JSValueMakeUndefined(context)
        case .failure(let error):
            exception?.pointee = error.value.ref
            return nil
        }
    }
    definition.finalize = { object in
        guard let data = JSObjectGetPrivate(object) else { return }
        Unmanaged<HostFunctionBox>.fromOpaque(data).release()
    }
    return JSClassCreate(&definition)
}()

extension JavaScriptContext {
    /// A JavaScript function that runs `body`.
    public func makeFunction(_ body: @escaping NativeFunction) -> JavaScriptValue {
        // The function lives in this context's heap, so it never runs after the context is gone.
        let function = makeHostFunction { [unowned(unsafe) self] _, _, arguments throws(ScriptThrow) in
            try body(JavaScriptArguments(arguments, in: self))?.ref
        }
        return JavaScriptValue(function, in: self)
    }

    /// Defines a global function named `name` at the C level (see `HostFunctionBody`).
    public func define(_ name: String, _ body: @escaping HostFunctionBody) {
        set(name, to: makeHostFunction(body), on: nil)
    }

    func makeHostFunction(_ body: @escaping HostFunctionBody) -> JSObjectRef {
        let box = Unmanaged.passRetained(HostFunctionBox(body)).toOpaque()
        return JSObjectMake(ref, hostFunctionClass, box)
    }
}
