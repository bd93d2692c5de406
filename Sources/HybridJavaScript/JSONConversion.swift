import CJavaScriptCore
import HybridJSON

extension JavaScriptContext {
    /// A JSON-like Swift value for a JavaScript value: what `JSON.stringify` would keep
    /// (functions and `undefined` members dropped, non-finite numbers become `null`, `Date`
    /// becomes its ISO string), with integers kept apart from other numbers. Cycles are cut
    /// (a repeated object becomes `null`) rather than looping.
    public func json(from value: JavaScriptValue) -> JSONValue {
        json(from: value.ref)
    }

    func json(from value: JSValueRef) -> JSONValue {
        var visiting: [JSObjectRef] = []
        return convert(value, visiting: &visiting)
    }

    private func convert(_ value: JSValueRef, visiting: inout [JSObjectRef]) -> JSONValue {
        switch JSValueGetType(ref, value) {
        case kJSTypeUndefined, kJSTypeNull:
            return .null
        case kJSTypeBoolean:
            return .bool(JSValueToBoolean(ref, value))
        case kJSTypeNumber:
            let number = JSValueToNumber(ref, value, nil)
            guard number.isFinite else { return .null }
            if number == number.rounded(), abs(number) < 9_007_199_254_740_992 { return .integer(Int(number)) }
            return .number(number)
        case kJSTypeString:
            return .string(string(value))
        default:
            guard let object = JSValueToObject(ref, value, nil) else { return .null }
            if visiting.contains(object) { return .null }
            visiting.append(object)
            defer { visiting.removeLast() }
            if JSValueIsArray(ref, value) {
                let count = Int(JSValueToNumber(ref, property("length", of: value) ?? JSValueMakeNumber(ref, 0), nil))
                return .array((0..<count).map { index in
                    let item = JSObjectGetPropertyAtIndex(ref, object, UInt32(index), nil) ?? JSValueMakeUndefined(ref)!
                    return convert(item, visiting: &visiting)
                })
            }
            if JSValueIsDate(ref, value), let iso = property("toISOString", of: value).flatMap({ JSValueToObject(ref, $0, nil) }),
               let text = try? call(iso, this: object, arguments: []) {
                return .string(string(text))
            }
            if JSObjectIsFunction(ref, object) { return .null }
            let names = JSObjectCopyPropertyNames(ref, object)!
            defer { JSPropertyNameArrayRelease(names) }
            var members: [(String, JSONValue)] = []
            for index in 0..<JSPropertyNameArrayGetCount(names) {
                let name = JSPropertyNameArrayGetNameAtIndex(names, index)!
                guard let member = JSObjectGetProperty(ref, object, name, nil), !JSValueIsUndefined(ref, member) else { continue }
                if let memberObject = JSValueToObject(ref, member, nil), JSObjectIsFunction(ref, memberObject) { continue }
                members.append((Self.string(name), convert(member, visiting: &visiting)))
            }
            return .object(JSONObject(members))
        }
    }

    /// A JavaScript value for a JSON-like Swift value.
    public func makeValue(_ json: JSONValue) -> JavaScriptValue {
        JavaScriptValue(makeRef(json), in: self)
    }

    private func makeRef(_ json: JSONValue) -> JSValueRef {
        switch json {
        case .null: return JSValueMakeNull(ref)
        case .bool(let value): return JSValueMakeBoolean(ref, value)
        case .integer(let value): return JSValueMakeNumber(ref, Double(value))
        case .number(let value): return JSValueMakeNumber(ref, value)
        case .string(let value): return makeString(value).ref
        case .array(let items):
            // Each item goes into the array as soon as it is made: items waiting in a Swift
            // array would be invisible to the collector.
            let array = JSObjectMakeArray(ref, 0, nil, nil)!
            for (index, item) in items.enumerated() {
                JSObjectSetPropertyAtIndex(ref, array, UInt32(index), makeRef(item), nil)
            }
            return array
        case .object(let object):
            let result = JSObjectMake(ref, nil, nil)!
            for member in object {
                set(member.key, to: makeRef(member.value), on: result)
            }
            return result
        }
    }
}
