import CJavaScriptCore

/// Swift strings for the JavaScript strings a native function is given again and again (the
/// service names of `hybrid.call`): each is converted once, then recognised by comparing
/// engine strings, which costs a fraction of making a Swift string.
///
/// Keeps the last `capacity` distinct strings; the oldest goes first. Loop thread only, like
/// the context.
public final class RecentStrings {
    private let context: JavaScriptContext
    private var kept: [(text: JSStringRef, string: String)] = []

    /// How many strings are kept; a script calling more services than this only converts more.
    public static let capacity = 16

    /// Strings of values of `context`.
    public init(context: JavaScriptContext) {
        self.context = context
    }

    deinit {
        for entry in kept { JSStringRelease(entry.text) }
    }

    /// The text of `value` (`String(value)` in JavaScript), as `JavaScriptValue.string` gives it.
    public func string(of value: JavaScriptValue) -> String {
        guard let text = JSValueToStringCopy(context.ref, value.ref, nil) else { return "" }
        if let entry = kept.first(where: { JSStringIsEqual($0.text, text) }) {
            JSStringRelease(text)
            return entry.string
        }
        let string = JavaScriptContext.string(text)
        if kept.count == Self.capacity { JSStringRelease(kept.removeFirst().text) }
        kept.append((text, string))
        return string
    }
}
