/// One built-in (or host-provided) function or method overload.
///
/// The body receives the evaluated arguments, already cast to the declared types (an integer
/// passed where a number is declared arrives as `.number`). For a method the receiver is the
/// first argument. A body reports failure by throwing an ``ExpressionError`` whose message is
/// only the *reason* (e.g. "Indexes are out of bounds."); the evaluator prefixes DivKit's
/// `Failed to evaluate [name(args)]. `.
public struct ExpressionFunction: Sendable {
    /// The signature of a function body.
    public typealias Body = @Sendable ([ExpressionValue]) throws(ExpressionError) -> ExpressionValue
    /// The signature of a body that also reads the calling expression's scope (for
    /// `getIntegerValue('name', fallback)` and the like, and for user-defined functions).
    public typealias ScopedBody = @Sendable ([ExpressionValue], any ExpressionScope) throws(ExpressionError) -> ExpressionValue

    /// The name the function is called by.
    public let name: String
    /// The declared argument types (for a method, the receiver first).
    public let parameters: [ExpressionType]
    /// Whether the last parameter may repeat (at least once), as in `max(1, 2, 3)`.
    public let isVariadic: Bool
    /// The implementation, given the arguments and the calling scope.
    public let body: ScopedBody
    /// For user-defined functions (`filter`'s predicates): the parameter names, in order.
    public let parameterNames: [String]?

    /// Declares an overload whose body needs only its arguments.
    public init(name: String, parameters: [ExpressionType], isVariadic: Bool = false, body: @escaping Body) {
        self.name = name
        self.parameters = parameters
        self.isVariadic = isVariadic
        self.body = { arguments, _ throws(ExpressionError) in try body(arguments) }
        self.parameterNames = nil
    }

    /// Declares an overload whose body also reads the calling scope.
    public init(name: String, parameters: [ExpressionType], isVariadic: Bool = false,
                parameterNames: [String]? = nil, scopedBody: @escaping ScopedBody) {
        self.name = name
        self.parameters = parameters
        self.isVariadic = isVariadic
        self.body = scopedBody
        self.parameterNames = parameterNames
    }

    /// How well argument types fit this overload.
    enum Match { case exact, withCast, countMismatch, typeMismatch(expected: ExpressionType, actual: ExpressionType) }

    /// DivKit's matching: the argument count must fit, and each type must equal the declared
    /// one, or (when `allowingCast`) be an integer where a number is declared.
    func match(_ types: [ExpressionType], allowingCast: Bool) -> Match {
        if parameters.isEmpty { return types.isEmpty ? .exact : .countMismatch }
        let minimum = parameters.count
        let maximum = isVariadic ? Int.max : parameters.count
        guard types.count >= minimum && types.count <= maximum else { return .countMismatch }
        var casted = false
        for (index, type) in types.enumerated() {
            let declared = parameters[min(index, parameters.count - 1)]
            if type == declared { continue }
            if allowingCast && type == .integer && declared == .number {
                casted = true
                continue
            }
            return .typeMismatch(expected: declared, actual: type)
        }
        return casted ? .withCast : .exact
    }

    /// Whether `arguments` fit this overload exactly (the common case, checked without
    /// building a type list).
    func fits(_ arguments: [ExpressionValue]) -> Bool {
        if isVariadic {
            guard arguments.count >= parameters.count else { return false }
        } else {
            guard arguments.count == parameters.count else { return false }
        }
        for index in arguments.indices where arguments[index].type != parameters[min(index, parameters.count - 1)] {
            return false
        }
        return true
    }

    /// Casts integers to numbers where the overload declares numbers.
    func cast(_ arguments: [ExpressionValue]) -> [ExpressionValue] {
        var result = arguments
        for index in result.indices {
            if case .integer(let value) = result[index], parameters[min(index, parameters.count - 1)] == .number {
                result[index] = .number(Double(value))
            }
        }
        return result
    }
}
