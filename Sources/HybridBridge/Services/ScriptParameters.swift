import CJavaScriptCore
import HybridJSON
import HybridJavaScript
import HybridServices

/// Service parameters read in place from a JavaScript value: the requested fields are decoded
/// straight from the object; only when that fails is the value converted to JSON and decoded
/// again, to report the exact field and reason. That conversion is strict: a cycle, nesting
/// deeper than `JavaScriptContext.maximumJSONDepth`, or a getter or proxy trap that throws is
/// `E_BAD_PARAMS` naming the place, never a value silently cut.
struct ScriptParameters: ServiceParameters {
    let value: JavaScriptValue
    let decoder: JSValueDecoder
    /// When the prelude already found the value a plain object (no array, date or function)
    /// whose every field is known, the values of those fields it read, in the order of the
    /// service's field names: asking JavaScriptCore for an object's names costs more than the
    /// rest of a call, and each question about the value is one more engine call.
    let fieldValues: UnsafeBufferPointer<JSValueRef?>?
    // Every engine call takes its lock, so the value's kind is asked once, if at all.
    private let kind: JavaScriptValue.Kind

    /// Parameters valid while the script's call lasts (`fieldValues` are its arguments).
    init(value: JavaScriptValue, decoder: JSValueDecoder, fieldValues: UnsafeBufferPointer<JSValueRef?>?) {
        self.value = value
        self.decoder = decoder
        self.fieldValues = fieldValues
        kind = fieldValues != nil ? .object : value.kind
    }

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
        return try value.context.strictJSON(from: value).decode(type, fields: fields)
    }
}
