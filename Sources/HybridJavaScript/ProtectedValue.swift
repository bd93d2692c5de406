import CJavaScriptCore

/// A JavaScript value kept on the Swift heap (a callback, a promise's resolve function): the
/// collector cannot see Swift memory, so the value is protected until this wrapper goes away.
public final class ProtectedValue {
    private let ref: JSValueRef
    // Keeping the context keeps its engine alive as long as a value in it is kept.
    private let context: JavaScriptContext

    /// Protects `value`.
    public init(_ value: JavaScriptValue) {
        ref = value.ref
        context = value.context
        JSValueProtect(context.ref, ref)
    }

    deinit {
        JSValueUnprotect(context.ref, ref)
    }

    /// The value; valid while this wrapper lives.
    public var value: JavaScriptValue { JavaScriptValue(ref, in: context) }
}
