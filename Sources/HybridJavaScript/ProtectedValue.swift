import CJavaScriptCore

/// A JavaScript value kept on the Swift heap (a callback, a promise's resolve function): the
/// collector cannot see Swift memory, so the value is protected until this wrapper goes away.
public final class ProtectedValue {
    /// The value; valid while this wrapper and its context live.
    public let value: JSValueRef
    private let context: JSGlobalContextRef

    /// Protects `value` in `context`.
    public init(_ value: JSValueRef, in context: JavaScriptContext) {
        self.value = value
        // Retaining the context keeps it alive as long as a value in it is kept.
        self.context = JSGlobalContextRetain(context.ref)
        JSValueProtect(context.ref, value)
    }

    deinit {
        JSValueUnprotect(context, value)
        JSGlobalContextRelease(context)
    }

    /// The value as an object (functions, arrays), when it is one.
    public var object: JSObjectRef? {
        JSValueIsObject(context, value) ? JSValueToObject(context, value, nil) : nil
    }
}
