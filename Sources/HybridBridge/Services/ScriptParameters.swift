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
    /// Whether the prelude already found every field known (asking JavaScriptCore for an
    /// object's names costs more than the rest of a call).
    let fieldsChecked: Bool
    // Every engine call takes its lock, so the value's kind is asked once.
    private let kind: JavaScriptValue.Kind

    init(value: JavaScriptValue, decoder: JSValueDecoder, fieldsChecked: Bool) {
        self.value = value
        self.decoder = decoder
        self.fieldsChecked = fieldsChecked
        kind = value.kind
    }

    private var isAbsent: Bool { kind == .null || kind == .undefined }

    var isObject: Bool {
        if isAbsent { return true }
        return kind == .object && !value.isArray && !value.isFunction
    }

    func unknownField(among known: [String]) -> String? {
        guard !fieldsChecked, kind == .object else { return nil }
        return decoder.firstUnknownKey(of: value, among: known)
    }

    var kindDescription: String { value.json.kindDescription }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if !isAbsent, let decoded = try? decoder.decode(type, from: value) { return decoded }
        return try value.context.strictJSON(from: value).decode(type)
    }
}
