/// One token of DivKit's expression language, as the lexer hands it to the parser.
enum Token: Equatable {
    // Operands.
    case integer(Int)
    case number(Double)
    case string(String)
    case boolean(Bool)
    case variable(String)
    /// A name directly followed by `(`: a function, or a method after `.`.
    case function(String)

    // Operators. `+`, `-` and `!` come out as unary or binary depending on what precedes them.
    case unaryPlus, unaryMinus, not
    case binary(BinaryOperator)
    case and, or
    case question, colon
    /// `!:`, DivKit's try operator.
    case tryFallback
    case dot

    // Punctuation.
    case leftParen, rightParen, comma

    // String templates: `'a @{x} b'` is templateStart, "a ", expressionStart, x,
    // expressionEnd, " b", templateEnd.
    case templateStart, templateEnd, expressionStart, expressionEnd

    /// Operands and literals: what may end an operand, so a following `+`/`-` is binary.
    var isOperand: Bool {
        switch self {
        case .integer, .number, .string, .boolean, .variable: return true
        default: return false
        }
    }

    var isUnary: Bool {
        switch self {
        case .unaryPlus, .unaryMinus, .not: return true
        default: return false
        }
    }
}

/// The binary operators that evaluate both sides (logical `&&`/`||` are separate because they
/// short-circuit).
enum BinaryOperator: String, Equatable, Sendable {
    case plus = "+", minus = "-", multiply = "*", divide = "/", modulo = "%"
    case equal = "==", notEqual = "!="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    var symbol: String { rawValue }
}
