import CJavaScriptCore

/// Swift strings for the JavaScript strings a native function is given again and again (the
/// service names of `hybrid.call`, the keys and names in service parameters): each is
/// converted once, then recognised — by the value itself when the script passes the same
/// string value (a literal), else by comparing engine strings — which costs a fraction of
/// making a Swift string.
///
/// Keeps the last `capacity` distinct strings of at most `maximumLength` UTF-8 bytes (and the
/// value each first came as, protected from collection so that no other value can take its
/// place); the oldest goes first. Loop thread only, like the context.
public final class RecentStrings {
    private let context: JavaScriptContext
    private let maximumLength: Int
    // Looked at on every call: no exclusivity checks (never touched from two places at once).
    @exclusivity(unchecked) private var kept: [(value: JSValueRef, text: JSStringRef, string: String)] = []
    /// `kept`'s values, in its order, compared without copying (retaining) its entries.
    @exclusivity(unchecked) private var values: [JSValueRef] = []

    /// How many strings are kept; a script calling more services than this only converts more.
    public static let capacity = 16

    /// Strings of values of `context`; longer ones than `maximumLength` are converted each time.
    public init(context: JavaScriptContext, maximumLength: Int = .max) {
        self.context = context
        self.maximumLength = maximumLength
    }

    deinit {
        for entry in kept { forget(entry) }
    }

    /// The text of `value` (`String(value)` in JavaScript), as `JavaScriptValue.string` gives it.
    public func string(of value: JavaScriptValue) -> String {
        string(of: value.ref)
    }

    /// The text of `value`, at the C level.
    func string(of value: JSValueRef) -> String {
        // The same value again: no engine call at all.
        if let index = values.firstIndex(of: value) { return kept[index].string }
        guard let text = JSValueToStringCopy(context.ref, value, nil) else { return "" }
        if let entry = kept.first(where: { JSStringIsEqual($0.text, text) }) {
            JSStringRelease(text)
            return entry.string
        }
        let string = JavaScriptContext.string(text)
        guard string.utf8.count <= maximumLength else {
            JSStringRelease(text)
            return string
        }
        if kept.count == Self.capacity {
            forget(kept.removeFirst())
            values.removeFirst()
        }
        JSValueProtect(context.ref, value)
        kept.append((value, text, string))
        values.append(value)
        return string
    }

    /// Whether `value` is one of the values kept: its text is known without an engine call.
    func holds(_ value: JSValueRef) -> Bool {
        values.contains(value)
    }

    private func forget(_ entry: (value: JSValueRef, text: JSStringRef, string: String)) {
        JSValueUnprotect(context.ref, entry.value)
        JSStringRelease(entry.text)
    }
}
