/// DivKit's operator semantics: typing rules, implicit integer-to-number casts, overflow and
/// division-by-zero checks, and the exact error texts.
enum Operators {
    // MARK: Binary

    static func binary(_ op: BinaryOperator, _ left: ExpressionValue, _ right: ExpressionValue)
        throws(ExpressionError) -> ExpressionValue
    {
        // Fast paths first: numeric operands are by far the most common.
        switch (left, right) {
        case let (.integer(a), .integer(b)): return try integers(op, a, b)
        case let (.number(a), .number(b)): return try numbers(op, a, b)
        // Mixed integer and number: the integer is cast to a number (DivKit's implicit cast).
        case let (.integer(a), .number(b)): return try numbers(op, Double(a), b)
        case let (.number(a), .integer(b)): return try numbers(op, a, Double(b))
        default: break
        }
        guard left.type == right.type else { throw typeError(op.symbol, left, right) }
        switch op {
        case .equal: return .boolean(left == right)
        case .notEqual: return .boolean(left != right)
        case .plus:
            if case .string(let a) = left, case .string(let b) = right {
                guard a.utf8.count + b.utf8.count <= ExpressionLimits.maximumStringBytes else {
                    throw .evaluation("\(left.messageFormat) + \(right.messageFormat)", ExpressionLimits.stringReason)
                }
                return .string(a + b)
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if case .datetime(let a) = left, case .datetime(let b) = right {
                return .boolean(compare(op, a, b))
            }
        default:
            break
        }
        throw typeError(op.symbol, left, right)
    }

    /// "Operator 'op' cannot be applied to …" for operands of the wrong or different types.
    static func typeError(_ symbol: String, _ left: ExpressionValue, _ right: ExpressionValue) -> ExpressionError {
        let types = left.type == right.type
            ? "\(left.type.displayName) type"
            : "different types: \(left.type.displayName) and \(right.type.displayName)"
        return .evaluation("\(left.messageFormat) \(symbol) \(right.messageFormat)",
                           "Operator '\(symbol)' cannot be applied to \(types).")
    }

    private static func integers(_ op: BinaryOperator, _ a: Int, _ b: Int) throws(ExpressionError) -> ExpressionValue {
        switch op {
        case .plus: return try checked(a.addingReportingOverflow(b), op, a, b)
        case .minus: return try checked(a.subtractingReportingOverflow(b), op, a, b)
        case .multiply: return try checked(a.multipliedReportingOverflow(by: b), op, a, b)
        case .divide:
            guard b != 0 else { throw .evaluation("\(a) / \(b)", ExpressionError.divisionByZero) }
            return try checked(a.dividedReportingOverflow(by: b), op, a, b)
        case .modulo:
            guard b != 0 else { throw .evaluation("\(a) % \(b)", ExpressionError.divisionByZero) }
            // Int.min % -1 "overflows" in Swift but is mathematically 0.
            return .integer(a.remainderReportingOverflow(dividingBy: b).partialValue)
        case .equal: return .boolean(a == b)
        case .notEqual: return .boolean(a != b)
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return .boolean(compare(op, a, b))
        }
    }

    private static func checked(_ result: (partialValue: Int, overflow: Bool), _ op: BinaryOperator, _ a: Int, _ b: Int)
        throws(ExpressionError) -> ExpressionValue
    {
        guard !result.overflow else { throw .evaluation("\(a) \(op.symbol) \(b)", ExpressionError.integerOverflow) }
        return .integer(result.partialValue)
    }

    private static func numbers(_ op: BinaryOperator, _ a: Double, _ b: Double) throws(ExpressionError) -> ExpressionValue {
        switch op {
        case .plus: return try finite(a + b, op, a, b)
        case .minus: return try finite(a - b, op, a, b)
        case .multiply: return try finite(a * b, op, a, b)
        case .divide, .modulo:
            guard b != 0 else {
                throw .evaluation("\(NumberFormatting.kotlinString(a)) \(op.symbol) \(NumberFormatting.kotlinString(b))",
                                  ExpressionError.divisionByZero)
            }
            // `%` keeps the dividend's sign, like Kotlin's and C's fmod.
            return try finite(op == .divide ? a / b : a.truncatingRemainder(dividingBy: b), op, a, b)
        case .equal: return .boolean(a == b)
        case .notEqual: return .boolean(a != b)
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return .boolean(compare(op, a, b))
        }
    }

    /// `result` of `a op b`, unless it overflowed past the largest number.
    private static func finite(_ result: Double, _ op: BinaryOperator, _ a: Double, _ b: Double) throws(ExpressionError) -> ExpressionValue {
        guard result.isFinite else {
            throw .evaluation("\(NumberFormatting.kotlinString(a)) \(op.symbol) \(NumberFormatting.kotlinString(b))",
                              ExpressionLimits.numberOverflowReason)
        }
        return .number(result)
    }

    private static func compare<T: Comparable>(_ op: BinaryOperator, _ a: T, _ b: T) -> Bool {
        switch op {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        default: return a >= b
        }
    }

    // MARK: Unary

    static func unary(_ op: UnaryNode.Operator, _ value: ExpressionValue) throws(ExpressionError) -> ExpressionValue {
        switch (op, value) {
        case (.plus, .integer), (.plus, .number): return value
        case (.minus, .integer(let a)):
            guard a != Int.min else { throw .evaluation("-(\(a))", ExpressionError.integerOverflow) }
            return .integer(-a)
        case (.minus, .number(let a)): return .number(-a)
        case (.not, .boolean(let a)): return .boolean(!a)
        case (.plus, _): throw .evaluation("+\(value.displayString)", "A Number is expected after a unary plus.")
        case (.minus, _): throw .evaluation("-\(value.displayString)", "A Number is expected after a unary minus.")
        case (.not, _): throw .evaluation("!\(value.messageFormat)", "A Boolean is expected after a unary not.")
        }
    }
}
