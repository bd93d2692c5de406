import CJavaScriptCore

/// A JavaScriptCore context with its own virtual machine.
///
/// The bridge (services, timers, the watchdog) grows on top of this; for now it proves the
/// system library links and evaluates scripts with located errors.
public final class JavaScriptContext {
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef

    /// A fresh context in its own context group (its own VM, so it can run in parallel with others).
    public init() {
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
    }

    deinit {
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// A script error: the message and where it was thrown.
    public struct ScriptError: Error, CustomStringConvertible {
        /// The exception's text.
        public var message: String
        /// `FILE:LINE:COL` of the throw, when known.
        public var location: String?

        public var description: String { location.map { "\($0): \(message)" } ?? message }
    }

    /// Evaluates `script` (named `sourceURL` in errors) and returns the result as a string.
    public func evaluate(_ script: String, sourceURL: String = "<eval>") throws -> String {
        let source = JSStringCreateWithUTF8CString(script)
        let url = JSStringCreateWithUTF8CString(sourceURL)
        defer {
            JSStringRelease(source)
            JSStringRelease(url)
        }
        var exception: JSValueRef?
        let result = JSEvaluateScript(context, source, nil, url, 1, &exception)
        if let exception {
            throw error(from: exception, sourceURL: sourceURL)
        }
        return string(from: result)
    }

    private func string(from value: JSValueRef?) -> String {
        guard let value, let text = JSValueToStringCopy(context, value, nil) else { return "undefined" }
        defer { JSStringRelease(text) }
        let capacity = JSStringGetMaximumUTF8CStringSize(text)
        var bytes = [CChar](repeating: 0, count: capacity)
        let written = JSStringGetUTF8CString(text, &bytes, capacity)
        // The returned count includes the terminating zero; a lone surrogate can end it early.
        return String(decoding: bytes.prefix(max(0, written - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func property(_ name: String, of object: JSValueRef) -> JSValueRef? {
        guard let object = JSValueToObject(context, object, nil) else { return nil }
        let key = JSStringCreateWithUTF8CString(name)
        defer { JSStringRelease(key) }
        let value = JSObjectGetProperty(context, object, key, nil)
        return value.flatMap { JSValueIsUndefined(context, $0) ? nil : $0 }
    }

    private func error(from exception: JSValueRef, sourceURL: String) -> ScriptError {
        let message = string(from: exception)
        guard JSValueIsObject(context, exception), let line = property("line", of: exception) else {
            return ScriptError(message: message, location: nil)
        }
        let column = property("column", of: exception).map { string(from: $0) } ?? "1"
        return ScriptError(message: message, location: "\(sourceURL):\(string(from: line)):\(column)")
    }
}
