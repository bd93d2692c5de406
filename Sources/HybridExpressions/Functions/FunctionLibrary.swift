/// The functions and methods expressions may call, by name, with overloads by argument type.
///
/// ``standard`` holds the built-ins; make a copy and ``register(_:)`` more to extend it
/// (a host's own functions, or later parts of DivKit's library).
public struct FunctionLibrary: Sendable {
    /// Function overloads by name, in registration order (earlier wins among exact matches).
    public private(set) var functions: [String: [ExpressionFunction]] = [:]
    /// Method overloads by name; the receiver is each overload's first parameter.
    public private(set) var methods: [String: [ExpressionFunction]] = [:]

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
        return library
    }()
}

/// Picks the overload for runtime argument types, with DivKit's reasons when none fits.
enum OverloadResolver {
    static func resolve(_ overloads: [ExpressionFunction], _ types: [ExpressionType], isMethod: Bool)
        throws(ExpressionError) -> ExpressionFunction
    {
        let kind = isMethod ? "Method" : "Function"
        // A method's receiver is its first argument, but DivKit's texts list only the others.
        let shown = isMethod ? Array(types.dropFirst()) : types
        if overloads.count == 1 {
            let only = overloads[0]
            switch only.match(types, allowingCast: true) {
            case .exact, .withCast:
                return only
            case .countMismatch:
                if shown.isEmpty {
                    throw ExpressionError(only.isVariadic
                        ? "Non empty argument list is required for function '\(only.name)'."
                        : "\(kind) requires non empty argument list.")
                }
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
        if shown.isEmpty {
            if overloads.contains(where: \.isVariadic) {
                throw ExpressionError("Non empty argument list is required for function '\(overloads[0].name)'.")
            }
            throw ExpressionError("\(kind) requires non empty argument list.")
        }
        let names = shown.map(\.displayName).joined(separator: ", ")
        throw ExpressionError("\(kind) has no matching overload for given argument types: \(names).")
    }
}
