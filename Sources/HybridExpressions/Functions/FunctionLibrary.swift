/// The functions and methods expressions may call, by name, with overloads by argument type.
///
/// ``standard`` holds the built-ins; make a copy and ``register(_:)`` more to extend it
/// (a host's own functions, or later parts of DivKit's library).
public struct FunctionLibrary: Sendable {
    /// Function overloads by name, in registration order (earlier wins among exact matches).
    public private(set) var functions: [String: [ExpressionFunction]] = [:]
    /// Method overloads by name; the receiver is each overload's first parameter.
    public private(set) var methods: [String: [ExpressionFunction]] = [:]
    /// User-defined functions registered so far (each may call the earlier ones).
    private var userFunctionCount = 0

    /// An empty library.
    public init() {}

    /// Adds a function overload, callable as `name(args)`.
    public mutating func register(_ function: ExpressionFunction) {
        functions[function.name, default: []].append(function)
    }

    /// Adds a method overload, callable as `receiver.name(args)`.
    public mutating func registerMethod(_ method: ExpressionFunction) {
        methods[method.name, default: []].append(method)
    }

    /// Convenience: adds a function overload from its parts.
    public mutating func register(_ name: String, _ parameters: [ExpressionType], variadic: Bool = false,
                                  _ body: @escaping ExpressionFunction.Body) {
        register(ExpressionFunction(name: name, parameters: parameters, isVariadic: variadic, body: body))
    }

    /// Convenience: adds a method overload from its parts (receiver type first).
    public mutating func registerMethod(_ name: String, _ parameters: [ExpressionType], variadic: Bool = false,
                                        _ body: @escaping ExpressionFunction.Body) {
        registerMethod(ExpressionFunction(name: name, parameters: parameters, isVariadic: variadic, body: body))
    }

    /// The built-in library: conversions, strings, math, colours, datetimes, arrays and dicts.
    public static let standard: FunctionLibrary = {
        var library = FunctionLibrary()
        library.registerConversions()
        library.registerStrings()
        library.registerMath()
        library.registerColors()
        library.registerDatetimes()
        library.registerCollections()
        library.registerFormatting()
        library.registerVariableReaders()
        return library
    }()
}

/// Picks the overload for runtime argument types, with DivKit's reasons when none fits.
enum OverloadResolver {
    /// Functions that DivKit resolves without the integer-to-number cast, and whose errors
    /// are worded "has no matching override" (their platforms implement them apart).
    static let strictNames: Set<String> = ["toBoolean", "toInteger"]

    static func resolve(_ overloads: [ExpressionFunction], _ types: [ExpressionType], isMethod: Bool)
        throws(ExpressionError) -> ExpressionFunction
    {
        let kind = isMethod ? "Method" : "Function"
        let name = overloads[0].name
        // A method's receiver is its first argument, but DivKit's texts list only the others.
        let shown = isMethod ? Array(types.dropFirst()) : types
        let strict = !isMethod && strictNames.contains(name)
        if overloads.count == 1 && !strict {
            let only = overloads[0]
            switch only.match(types, allowingCast: true) {
            case .exact, .withCast:
                return only
            case .countMismatch:
                if shown.isEmpty { throw emptyArguments(name, kind: kind, variadic: !isMethod && only.isVariadic) }
                throw ExpressionError(only.isVariadic
                    ? "At least \(only.parameters.count) argument(s) expected."
                    : "Exactly \(only.parameters.count) argument(s) expected.")
            case .typeMismatch(let expected, let actual):
                throw ExpressionError("Invalid argument type: expected \(expected.displayName), got \(actual.displayName).")
            }
        }
        for overload in overloads {
            if case .exact = overload.match(types, allowingCast: false) { return overload }
        }
        if !strict {
            // With casting, DivKit accepts only an unambiguous match.
            var candidate: ExpressionFunction?
            var ambiguous = false
            for overload in overloads {
                switch overload.match(types, allowingCast: true) {
                case .exact, .withCast:
                    if candidate != nil { ambiguous = true }
                    candidate = overload
                default:
                    break
                }
            }
            if let candidate, !ambiguous { return candidate }
        }
        if shown.isEmpty {
            throw emptyArguments(name, kind: kind,
                                 variadic: strict || (!isMethod && overloads.contains(where: \.isVariadic)))
        }
        let names = shown.map(\.displayName).joined(separator: ", ")
        if strict {
            throw ExpressionError("Function '\(name)' has no matching override for given argument types: \(names).")
        }
        throw ExpressionError("\(kind) has no matching overload for given argument types: \(names).")
    }

    private static func emptyArguments(_ name: String, kind: String, variadic: Bool) -> ExpressionError {
        variadic
            ? ExpressionError("Non empty argument list is required for function '\(name)'.")
            : ExpressionError("\(kind) requires non empty argument list.")
    }
}

extension FunctionLibrary {
    /// Adds a user-defined function whose body is an expression over its named parameters
    /// (DivKit's custom functions, as in `"functions": [{"name", "arguments", "body"}]`).
    /// The body sees the parameters over the calling scope. Such a function can also be passed
    /// by name to `filter`. At most ``ExpressionLimits/maximumUserFunctions`` are accepted: each
    /// holds the ones it calls, so their chain is as deep as their number.
    public mutating func registerUserFunction(name: String, parameters: [(name: String, type: ExpressionType)],
                                              body: ExpressionTemplate) throws(ExpressionError) {
        guard userFunctionCount < ExpressionLimits.maximumUserFunctions else {
            throw ExpressionError("More than \(ExpressionLimits.maximumUserFunctions) user-defined functions.")
        }
        userFunctionCount += 1
        let names = parameters.map(\.name)
        register(ExpressionFunction(name: name, parameters: parameters.map(\.type), parameterNames: names) {
            (arguments: [ExpressionValue], scope: any ExpressionScope) throws(ExpressionError) in
            try body.evaluate(in: try ArgumentScope(names: names, values: arguments, parent: scope))
        })
    }
}
