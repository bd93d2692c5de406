import CJavaScriptCore
import HybridJSON
import HybridJavaScript
import HybridServices

/// Service parameters read in place from a JavaScript value: the requested fields are decoded
/// straight from the object; only when that fails is the value converted to JSON and decoded
/// again, to report the exact field and reason. That conversion is strict: a cycle, nesting
/// deeper than `JavaScriptContext.maximumJSONDepth`, or a getter or proxy trap that throws is
/// `E_BAD_PARAMS` naming the place, never a value silently cut.
///
/// One word (a pointer to what the call was given, on the caller's stack), so that passing it
/// as `any ServiceParameters` allocates nothing: it lives only while `with` runs, as the
/// registry decodes parameters before a service starts.
struct ScriptParameters: ServiceParameters {
    private struct Given {
        let value: JavaScriptValue
        let decoder: JSValueDecoder
        let fieldValues: UnsafeBufferPointer<JSValueRef?>?
        let kind: JavaScriptValue.Kind
    }

    private let given: UnsafePointer<Given>

    /// Runs `body` with parameters valid while the script's call lasts (`fieldValues` are its
    /// arguments).
    ///
    /// - Parameter fieldValues: When the prelude already found the value a plain object (no
    ///   array, date or function) whose every field is known, the values of those fields it
    ///   read, in the order of the service's field names: asking JavaScriptCore for an
    ///   object's names costs more than the rest of a call, and each question about the value
    ///   is one more engine call.
    static func with<Result>(_ value: JavaScriptValue, decoder: JSValueDecoder, fieldValues: UnsafeBufferPointer<JSValueRef?>?,
                             _ body: (ScriptParameters) -> Result) -> Result {
        // Every engine call takes its lock, so the value's kind is asked once, if at all.
        let given = Given(value: value, decoder: decoder, fieldValues: fieldValues, kind: fieldValues != nil ? .object : value.kind)
        return withUnsafePointer(to: given) { body(ScriptParameters(given: $0)) }
    }

    private var value: JavaScriptValue { given.pointee.value }
    private var decoder: JSValueDecoder { given.pointee.decoder }
    private var fieldValues: UnsafeBufferPointer<JSValueRef?>? { given.pointee.fieldValues }
    private var kind: JavaScriptValue.Kind { given.pointee.kind }

    private var fieldsChecked: Bool { fieldValues != nil }

    private var isAbsent: Bool { kind == .null || kind == .undefined }

    var isObject: Bool {
        if isAbsent || fieldsChecked { return true }
        return kind == .object && !value.isArray && !value.isFunction
    }

    func unknownField(among known: [String]) -> String? {
        guard !fieldsChecked, kind == .object else { return nil }
        return decoder.firstUnknownKey(of: value, among: known)
    }

    var kindDescription: String { value.json.kindDescription }

    func decode<T: Decodable>(_ type: T.Type, fields: [String]) throws -> T {
        // `do`/`catch`, not `try?`: an `Optional<T>` costs a generic metadata lookup per call.
        // The prelude may pass more values than fields (it writes four out): the first are theirs.
        if let fieldValues, fieldValues.count >= fields.count {
            do { return try decoder.decode(type, from: value, fields: fields, values: UnsafeBufferPointer(rebasing: fieldValues[..<fields.count])) } catch {}
        } else if !isAbsent {
            do { return try decoder.decode(type, from: value, isPlainObject: fieldsChecked) } catch {}
        }
        // Once the time limit stopped the entry, reading the value again would only run its
        // getters again: one that calls a service nests the calls, and each level reading its
        // value twice would double the work of the level below it.
        try value.context.throwIfStopped()
        return try value.context.strictJSON(from: value).decode(type, fields: fields)
    }
}
