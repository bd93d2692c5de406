import CJavaScriptCore
import HybridJSON
import HybridJavaScript
import HybridServices

/// Service parameters read in place from a JavaScript value: the requested fields are decoded
/// straight from the object; only when that fails is the value converted to JSON and decoded
/// again, to report the exact field and reason.
struct ScriptParameters: ServiceParameters {
    let context: JavaScriptContext
    let value: JSValueRef
    let decoder: JSValueDecoder
    /// Whether the prelude already found every field known (asking JavaScriptCore for an
    /// object's names costs more than the rest of a call).
    let fieldsChecked: Bool
    // Every C API call takes the engine's lock, so the value's type is asked once.
    private let type: JSType

    init(context: JavaScriptContext, value: JSValueRef, decoder: JSValueDecoder, fieldsChecked: Bool) {
        self.context = context
        self.fieldsChecked = fieldsChecked
        self.value = value
        self.decoder = decoder
        type = JSValueGetType(context.ref, value)
    }

    private var isAbsent: Bool { type == kJSTypeNull || type == kJSTypeUndefined }

    var isObject: Bool {
        if isAbsent { return true }
        guard type == kJSTypeObject, !JSValueIsArray(context.ref, value),
              let object = JSValueToObject(context.ref, value, nil) else { return false }
        return !JSObjectIsFunction(context.ref, object)
    }

    func unknownField(among known: [String]) -> String? {
        guard !fieldsChecked, type == kJSTypeObject, let object = JSValueToObject(context.ref, value, nil) else { return nil }
        let names = JSObjectCopyPropertyNames(context.ref, object)!
        defer { JSPropertyNameArrayRelease(names) }
        // Compared as JavaScript strings, so the common case builds no Swift strings.
        let knownNames = known.map(decoder.name)
        for index in 0..<JSPropertyNameArrayGetCount(names) {
            let name = JSPropertyNameArrayGetNameAtIndex(names, index)!
            if !knownNames.contains(where: { JSStringIsEqual(name, $0) }) { return JavaScriptContext.string(name) }
        }
        return nil
    }

    var kindDescription: String { context.json(from: value).kindDescription }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if !isAbsent, let decoded = try? decoder.decode(type, from: value) { return decoded }
        return try context.json(from: value).decode(type)
    }
}
