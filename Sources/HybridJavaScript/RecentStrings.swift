import CJavaScriptCore

/// Swift strings for the JavaScript strings a native function is given again and again (the
/// service names of `hybrid.call`): each is converted once, then recognised — by the value
/// itself when the script passes the same string value (a literal), else by comparing engine
/// strings — which costs a fraction of making a Swift string.
///
/// Keeps the last `capacity` distinct strings (and the value each first came as, protected
/// from collection so that no other value can take its place); the oldest goes first. Loop
/// thread only, like the context.
public final class RecentStrings {
    private let context: JavaScriptContext
    private var kept: [(value: JSValueRef, text: JSStringRef, string: String)] = []

    /// How many strings are kept; a script calling more services than this only converts more.
    public static let capacity = 16

    /// Strings of values of `context`.
    public init(context: JavaScriptContext) {
        self.context = context
    }

    deinit {
        for entry in kept { forget(entry) }
    }

    /// The text of `value` (`String(value)` in JavaScript), as `JavaScriptValue.string` gives it.
    public func string(of value: JavaScriptValue) -> String {
        // The same value again: no engine call at all.
        if let entry = kept.first(where: { $0.value == value.ref }) { return entry.string }
        guard let text = JSValueToStringCopy(context.ref, value.ref, nil) else { return "" }
        if let entry = kept.first(where: { JSStringIsEqual($0.text, text) }) {
            JSStringRelease(text)
            return entry.string
        }
        let string = JavaScriptContext.string(text)
        if kept.count == Self.capacity { forget(kept.removeFirst()) }
        JSValueProtect(context.ref, value.ref)
        kept.append((value.ref, text, string))
        return string
    }

    private func forget(_ entry: (value: JSValueRef, text: JSStringRef, string: String)) {
        JSValueUnprotect(context.ref, entry.value)
        JSStringRelease(entry.text)
    }
}
