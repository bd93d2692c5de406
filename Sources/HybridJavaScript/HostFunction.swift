import CJavaScriptCore

/// A Swift closure callable from JavaScript: `(this, arguments) throws -> result`. Throwing a
/// `ScriptThrow` makes the JavaScript call throw that value.
public typealias HostFunctionBody = (_ context: JSContextRef, _ this: JSObjectRef?, _ arguments: UnsafeBufferPointer<JSValueRef?>) throws(ScriptThrow) -> JSValueRef?

/// A value to throw into JavaScript from a host function.
public struct ScriptThrow: Error {
    /// The value thrown (usually an `Error` object).
    public var value: JSValueRef

    /// Throws `value` into the calling script.
    public init(_ value: JSValueRef) {
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
        let box = Unmanaged<HostFunctionBox>.fromOpaque(data).takeUnretainedValue()
        do throws(ScriptThrow) {
            return try box.body(context, this, UnsafeBufferPointer(start: arguments, count: count)) ?? JSValueMakeUndefined(context)
        } catch {
            exception?.pointee = error.value
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
    public func makeFunction(_ body: @escaping HostFunctionBody) -> JSObjectRef {
        let box = Unmanaged.passRetained(HostFunctionBox(body)).toOpaque()
        return JSObjectMake(ref, hostFunctionClass, box)
    }

    /// Defines a global (or, with `on`, a property) function named `name`.
    public func define(_ name: String, on object: JSObjectRef? = nil, hidden: Bool = false, _ body: @escaping HostFunctionBody) {
        set(name, to: makeFunction(body), on: object, hidden: hidden)
    }
}
