extension FunctionLibrary {
    /// Typed getters on arrays and dicts (functions, legacy names, and methods), with their
    /// `Opt` variants that return a fallback instead of failing.
    mutating func registerCollections() {
        // (type word used in function names, result type)
        let kinds: [(String, ExpressionType)] = [
            ("String", .string), ("Number", .number), ("Integer", .integer), ("Boolean", .boolean),
            ("Color", .color), ("Url", .url), ("Array", .array), ("Dict", .dict),
        ]
        for (word, type) in kinds {
            // Arrays: getXFromArray(array, index), legacy getArrayX(array, index), method array.getX(index).
            let fromArray: ExpressionFunction.Body = { args throws(ExpressionError) in
                try FunctionLibrary.element(args.array(0), args.integer(1), as: type)
            }
            register("get\(word)FromArray", [.array, .integer], fromArray)
            if type != .array && type != .dict {
                register("getArray\(word)", [.array, .integer]) { args throws(ExpressionError) in
                    try FunctionLibrary.element(args.array(0), args.integer(1), as: type, legacy: true)
                }
            }
            registerMethod("get\(word)", [.array, .integer], fromArray)

            // Dicts: getXFromDict(dict, keys…), legacy getDictX(dict, keys…), method dict.getX(keys…).
            let fromDict: ExpressionFunction.Body = { args throws(ExpressionError) in
                try FunctionLibrary.property(args.dict(0), args[1...].map { $0.stringValue ?? "" }, as: type, quoted: true)
            }
            register("get\(word)FromDict", [.dict, .string], variadic: true, fromDict)
            if type != .array && type != .dict { register("getDict\(word)", [.dict, .string], variadic: true, fromDict) }
            registerMethod("get\(word)", [.dict, .string], variadic: true) { args throws(ExpressionError) in
                try FunctionLibrary.property(args.dict(0), args[1...].map { $0.stringValue ?? "" }, as: type, quoted: false)
            }

            // Opt variants: a fallback instead of an error.
            if type == .array || type == .dict {
                register("getOpt\(word)FromArray", [.array, .integer]) { args in
                    (try? FunctionLibrary.element(args.array(0), args.integer(1), as: type)) ?? (type == .array ? .array([]) : .dict([:]))
                }
                register("getOpt\(word)FromDict", [.dict, .string], variadic: true) { args in
                    (try? FunctionLibrary.property(args.dict(0), args[1...].map { $0.stringValue ?? "" }, as: type, quoted: true))
                        ?? (type == .array ? .array([]) : .dict([:]))
                }
                continue
            }
            var fallbackTypes = [type]
            if type == .color || type == .url { fallbackTypes.append(.string) }
            for fallbackType in fallbackTypes {
                let optFromArray: ExpressionFunction.Body = { args throws(ExpressionError) in
                    if let value = try? FunctionLibrary.element(args.array(0), args.integer(1), as: type) { return value }
                    return try FunctionLibrary.fallback(args[2], as: type)
                }
                register("getOpt\(word)FromArray", [.array, .integer, fallbackType], optFromArray)
                register("getArrayOpt\(word)", [.array, .integer, fallbackType], optFromArray)
                let optFromDict: ExpressionFunction.Body = { args throws(ExpressionError) in
                    if let value = try? FunctionLibrary.property(args.dict(1), args[2...].map { $0.stringValue ?? "" }, as: type, quoted: true) {
                        return value
                    }
                    return try FunctionLibrary.fallback(args[0], as: type)
                }
                register("getOpt\(word)FromDict", [fallbackType, .dict, .string], variadic: true, optFromDict)
                register("getDictOpt\(word)", [fallbackType, .dict, .string], variadic: true, optFromDict)
            }
        }

        register("len", [.array]) { args in .integer(args.array(0).count) }
        // Mean of the numeric items (0 for an empty array).
        register("avg", [.array]) { args throws(ExpressionError) in
            let items = args.array(0)
            guard !items.isEmpty else { return .number(0) }
            var total = 0.0
            for item in items {
                guard let value = item.numberValue else {
                    throw ExpressionError("Invalid argument type: expected Number, got \(item.type.displayName).")
                }
                total += value
            }
            return .number(total / Double(items.count))
        }
        register("len", [.dict]) { args in .integer(args.dict(0).count) }
        registerMethod("isEmpty", [.array]) { args in .boolean(args.array(0).isEmpty) }
        registerMethod("isEmpty", [.dict]) { args in .boolean(args.dict(0).isEmpty) }
        registerMethod("containsKey", [.dict, .string]) { args in .boolean(args.dict(0)[args.string(1)] != nil) }
        let keys: ExpressionFunction.Body = { args in .array(args.dict(0).keys.sorted().map { .string($0) }) }
        let values: ExpressionFunction.Body = { args in
            let dict = args.dict(0)
            return .array(dict.keys.sorted().map { dict[$0]! })
        }
        register("getDictKeys", [.dict], keys)
        register("getDictValues", [.dict], values)
        registerMethod("getKeys", [.dict], keys)
        registerMethod("getValues", [.dict], values)
    }

    /// `items[index]` converted to `type`, or DivKit's reason for failing. The legacy
    /// `getArrayX` functions word their errors as the dict functions do, without a full stop.
    static func element(_ items: [ExpressionValue], _ index: Int, as type: ExpressionType, legacy: Bool = false)
        throws(ExpressionError) -> ExpressionValue
    {
        guard items.indices.contains(index) else {
            throw ExpressionError("Requested index (\(index)) out of bounds array size (\(items.count))\(legacy ? "" : ".")")
        }
        do throws(ExpressionError) {
            return try convert(items[index], to: type, quoted: legacy)
        } catch {
            guard legacy, error.message.hasSuffix(".") else { throw error }
            throw ExpressionError(String(error.message.dropLast()))
        }
    }

    /// The value at a key path in `dict`, converted to `type`, or DivKit's reason for failing.
    static func property(_ dict: [String: ExpressionValue], _ path: [String], as type: ExpressionType, quoted: Bool)
        throws(ExpressionError) -> ExpressionValue
    {
        var current = ExpressionValue.dict(dict)
        for key in path {
            guard case .dict(let entries) = current, let next = entries[key] else {
                throw ExpressionError("Missing property \"\(key)\" in the dict.")
            }
            current = next
        }
        return try convert(current, to: type, quoted: quoted)
    }

    /// Converts a stored value to the requested type where DivKit allows it (integer to
    /// number, `#…` text to colour, text to URL). Array getters word the type error with
    /// capitalised names, dict functions with quoted lower-case ones.
    static func convert(_ value: ExpressionValue, to type: ExpressionType, quoted: Bool) throws(ExpressionError) -> ExpressionValue {
        if value.type == type { return value }
        switch (type, value) {
        case (.number, .integer(let v)): return .number(Double(v))
        case (.integer, .number(let v)):
            // JSON numbers read as integers when whole and in range.
            guard v.rounded(.towardZero) == v else { throw ExpressionError("Cannot convert value to integer.") }
            guard v >= -9.223372036854775808e18, v < 9.223372036854775808e18 else {
                throw ExpressionError(ExpressionError.integerOverflow)
            }
            return .integer(Int(v))
        case (.url, .string(let v)): return .url(v)
        case (.color, .string(let v)):
            guard let color = ExpressionColor(hex: v) else {
                throw ExpressionError("Unable to convert value to Color, expected format #AARRGGBB.")
            }
            return .color(color)
        default:
            // A value read from JSON has no integer type of its own in DivKit's texts.
            let actual = value.type == .integer ? ExpressionType.number : value.type
            let message = quoted
                ? "Incorrect value type: expected \"\(type.name)\", got \"\(actual.name)\"."
                : "Incorrect value type: expected \(type.displayName), got \(actual.displayName)."
            throw ExpressionError(message)
        }
    }

    /// An `Opt` getter's fallback as the requested type (colours and URLs may be given as text).
    static func fallback(_ value: ExpressionValue, as type: ExpressionType) throws(ExpressionError) -> ExpressionValue {
        try convert(value, to: type, quoted: false)
    }
}
