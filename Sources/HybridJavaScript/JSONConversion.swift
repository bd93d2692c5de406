import CJavaScriptCore
import HybridJSON

/// Why a JavaScript value cannot be taken as JSON: where (`$.items[2].next`) and what.
public struct JSONConversionError: Error, CustomStringConvertible, Sendable {
    /// The place in the value, `$` being the value itself.
    public var path: String
    /// What is wrong there.
    public var problem: String

    /// `PATH PROBLEM`.
    public var description: String { "\(path) \(problem)" }
}

extension JavaScriptContext {
    /// The deepest nesting of arrays and objects converted: the depth `JSONParser` reads back,
    /// so what a script stores can always be read again, and conversion never runs out of stack.
    public static let maximumJSONDepth = JSONParser.maximumDepth

    /// A JSON-like Swift value for a JavaScript value: what `JSON.stringify` would keep
    /// (functions and `undefined` members dropped, non-finite numbers become `null`, `Date`
    /// becomes its ISO string), with integers kept apart from other numbers. Cycles and values
    /// nested deeper than `maximumJSONDepth` are cut (they become `null`) rather than looping;
    /// `strictJSON(from:)` refuses them instead.
    public func json(from value: JavaScriptValue) -> JSONValue {
        json(from: value.ref)
    }

    func json(from value: JSValueRef) -> JSONValue {
        withEngineLock {
            var conversion = Conversion(context: self, strict: false)
            return (try? conversion.convert(value)) ?? .null
        }
    }

    /// `json(from:)` for values that must arrive whole (service parameters): a cycle, nesting
    /// deeper than `maximumJSONDepth`, a BigInt, or a getter or proxy trap that throws is an
    /// error naming the place.
    public func strictJSON(from value: JavaScriptValue) throws(JSONConversionError) -> JSONValue {
        try withEngineLock { () throws(JSONConversionError) in
            var conversion = Conversion(context: self, strict: true)
            return try conversion.convert(value.ref)
        }
    }

    /// `strictJSON(from:)` for values kept as data (the app store, a screen's state): what
    /// JSON cannot hold is an error naming the place instead of being dropped or cut to `null`
    /// — a function, a symbol, a BigInt, `undefined` inside an array, NaN and the infinities.
    /// An `undefined` member is left out, as `JSON.stringify` does.
    public func exactJSON(from value: JavaScriptValue) throws(JSONConversionError) -> JSONValue {
        try withEngineLock { () throws(JSONConversionError) in
            var conversion = Conversion(context: self, strict: true, exact: true)
            return try conversion.convert(value.ref)
        }
    }

    /// A JavaScript value for a JSON-like Swift value.
    public func makeValue(_ json: JSONValue) -> JavaScriptValue {
        switch json {
        // A scalar is one engine call, which takes the lock itself for less.
        case .array, .object: JavaScriptValue(withEngineLock { makeRef(json) }, in: self)
        default: JavaScriptValue(makeRef(json), in: self)
        }
    }

    private func makeRef(_ json: JSONValue) -> JSValueRef {
        switch json {
        case .null: return JSValueMakeNull(ref)
        case .bool(let value): return ImmediateValue.makeBoolean(value, in: ref)
        case .integer(let value): return ImmediateValue.makeNumber(Double(value), in: ref)
        case .number(let value): return ImmediateValue.makeNumber(value, in: ref)
        case .string(let value): return makeString(value).ref
        case .array(let items):
            // Each item goes into the array as soon as it is made: items waiting in a Swift
            // array would be invisible to the collector. No array is made while the entry is
            // being stopped (its time ran out in a sync service, say): the script never sees it.
            guard let array = JSObjectMakeArray(ref, 0, nil, nil) else { return JSValueMakeUndefined(ref) }
            for (index, item) in items.enumerated() {
                JSObjectSetPropertyAtIndex(ref, array, UInt32(index), makeRef(item), nil)
            }
            return array
        case .object(let object):
            guard let result = JSObjectMake(ref, nil, nil) else { return JSValueMakeUndefined(ref) }
            for member in object {
                set(member.key, to: makeRef(member.value), on: result)
            }
            return result
        }
    }
}

/// One conversion: the objects on the current path (to find cycles) and the path itself (to
/// name the place of a problem).
private struct Conversion {
    unowned(unsafe) let context: JavaScriptContext
    /// Whether problems are errors (else cycles and too-deep values become `null`).
    let strict: Bool
    /// Whether what JSON cannot hold is a problem too (`exactJSON(from:)`), not dropped.
    let exact: Bool
    private var visiting: [JSObjectRef] = []
    private var path: [PathPart] = []

    private enum PathPart {
        case key(String)
        case index(Int)
    }

    init(context: JavaScriptContext, strict: Bool, exact: Bool = false) {
        self.context = context
        self.strict = strict
        self.exact = exact
    }

    private var ref: JSGlobalContextRef { context.ref }

    /// `$.a.b[2]` for the current path; a deep one keeps its first and last steps around the
    /// count of those left out, so a message stays a line.
    private var place: String {
        let shown = path.count > 16 ? Array(path.prefix(8)) + [nil] + Array(path.suffix(4)) : path.map { $0 }
        return shown.reduce(into: "$") { text, part in
            switch part {
            case .key(let key)?: text += ".\(key)"
            case .index(let index)?: text += "[\(index)]"
            case nil: text += "…(\(path.count - 12) more)…"
            }
        }
    }

    /// A problem: an error when strict, else the value is cut to `null`.
    private func problem(_ what: String) throws(JSONConversionError) -> JSONValue {
        if strict { throw JSONConversionError(path: place, problem: what) }
        return .null
    }

    /// Checks what reading a member threw (a getter, a proxy trap).
    private func check(_ exception: JSValueRef?) throws(JSONConversionError) {
        guard strict, let exception else { return }
        throw JSONConversionError(path: place, problem: "could not be read: \(context.string(exception))")
    }

    mutating func convert(_ value: JSValueRef) throws(JSONConversionError) -> JSONValue {
        switch ImmediateValue.type(of: value, in: ref) {
        case kJSTypeUndefined:
            if exact, case .index? = path.last { return try problem("is undefined, which JSON cannot hold (use null)") }
            return .null
        case kJSTypeNull:
            return .null
        case kJSTypeBoolean:
            return .bool(ImmediateValue.boolean(of: value, in: ref))
        case kJSTypeNumber:
            let number = ImmediateValue.number(of: value, in: ref)
            guard number.isFinite else { return exact ? try problem("is \(number.isNaN ? "NaN" : "an infinity"), which JSON cannot hold") : .null }
            if number == number.rounded(), abs(number) < 9_007_199_254_740_992 { return .integer(Int(number)) }
            return .number(number)
        case kJSTypeString:
            return .string(context.string(value))
        case kJSTypeSymbol where exact:
            return try problem("is a symbol, which JSON cannot hold")
        // `JSON.stringify` throws for a BigInt too, where it drops a symbol.
        case kJSTypeBigInt where strict:
            return try problem("is a BigInt, which JSON cannot hold (use a number or a string)")
        default:
            guard let object = JSValueToObject(ref, value, nil) else { return .null }
            if visiting.contains(object) { return try problem("refers back to an object that contains it (a cycle), which JSON cannot hold") }
            if visiting.count >= JavaScriptContext.maximumJSONDepth {
                return try problem("nests deeper than \(JavaScriptContext.maximumJSONDepth) levels of arrays and objects")
            }
            visiting.append(object)
            defer { visiting.removeLast() }
            return try convert(object, value)
        }
    }

    private mutating func convert(_ object: JSObjectRef, _ value: JSValueRef) throws(JSONConversionError) -> JSONValue {
        if JSValueIsArray(ref, value) {
            var exception: JSValueRef?
            let length = context.property("length", of: value).map { JSValueToNumber(ref, $0, &exception) } ?? 0
            try check(exception)
            var items: [JSONValue] = []
            for index in 0..<Int(max(0, min(length, Double(UInt32.max)))) {
                // A sparse array can claim four billion items: converting them is bounded by the
                // entry's time limit like the script that made it.
                if index % 4096 == 4095, context.isOverBudget() { return try problem("took longer than the time limit to convert") }
                path.append(.index(index))
                defer { path.removeLast() }
                let item = JSObjectGetPropertyAtIndex(ref, object, UInt32(index), &exception)
                try check(exception)
                items.append(try convert(item ?? JSValueMakeUndefined(ref)))
            }
            return .array(items)
        }
        if JSValueIsDate(ref, value), let iso = context.property("toISOString", of: value).flatMap({ JSValueToObject(ref, $0, nil) }),
           let text = try? context.call(iso, this: object, arguments: []) {
            return .string(context.string(text))
        }
        if JSObjectIsFunction(ref, object) { return exact ? try problem("is a function, which JSON cannot hold") : .null }
        let names = JSObjectCopyPropertyNames(ref, object)!
        defer { JSPropertyNameArrayRelease(names) }
        var members: [(String, JSONValue)] = []
        for index in 0..<JSPropertyNameArrayGetCount(names) {
            let name = JSPropertyNameArrayGetNameAtIndex(names, index)!
            let key = JavaScriptContext.string(name)
            path.append(.key(key))
            defer { path.removeLast() }
            var exception: JSValueRef?
            let member = JSObjectGetProperty(ref, object, name, &exception)
            try check(exception)
            guard let member, !JSValueIsUndefined(ref, member) else { continue }
            if !exact, let memberObject = JSValueToObject(ref, member, nil), JSObjectIsFunction(ref, memberObject) { continue }
            members.append((key, try convert(member)))
        }
        return .object(JSONObject(members))
    }
}
