/// The bounds that keep any expression's cost in proportion to its text: a document or an
/// `expr` line can hold any string, and parsing and evaluating recurse, so nesting is limited
/// before it can overflow the stack, and the values an expression makes are limited before
/// they can take the machine's memory. Each bound is reached only by input no person writes;
/// reaching it is an ordinary expression error.
public enum ExpressionLimits {
    /// How deeply parentheses, unary operators, ternaries, call arguments and string
    /// literals with their own `@{…}` may nest.
    public static let maximumNesting = 100

    /// The height of a parsed tree. Chains such as `a + b + c` grow it by one per operator
    /// without nesting, so it is looser than ``maximumNesting``.
    public static let maximumTreeHeight = 1000

    /// The longest text, in UTF-8 bytes, an expression may make (by `+`, templates, padding,
    /// replacing): 1 MiB, far more than a terminal shows.
    public static let maximumStringBytes = 1 << 20

    /// How many user-defined functions one library may hold (`hybrid expr`'s `functions`).
    public static let maximumUserFunctions = 100

    /// How many user-defined function calls one evaluation may make (they may call each other).
    public static let maximumUserCalls = 100_000

    /// `value`, unless it is a number that is not finite or a string over
    /// ``maximumStringBytes``: the bare reason, which the caller wraps with what was evaluated.
    /// (DivKit's platforms print such numbers as `Infinity` or fail; the expression's JSON
    /// answer could only say `null`.)
    static func checked(_ value: ExpressionValue) throws(ExpressionError) -> ExpressionValue {
        switch value {
        case .number(let number) where !number.isFinite:
            throw ExpressionError(number.isNaN ? notANumberReason : numberOverflowReason)
        case .string(let text) where text.utf8.count > maximumStringBytes:
            throw ExpressionError(stringReason)
        default:
            return value
        }
    }

    static let callsReason = "More than \(maximumUserCalls) function calls."
    static let numberOverflowReason = "Number overflow."
    static let notANumberReason = "Result is not a number."
    static let nestingError = ExpressionError("Expression nests deeper than \(maximumNesting) levels.")
    static let heightError = ExpressionError("Expression is too long: more than \(maximumTreeHeight) operations in a row.")
    static let stringReason = "String is longer than \(maximumStringBytes) bytes."
}
