import HybridJSON

/// An error from parsing or evaluating an expression.
///
/// `message` is DivKit's exact text (for example
/// `Failed to evaluate [2 ? 1 : 0]. Ternary must be called with a Boolean value as a condition.`),
/// so documents written for DivKit report the same problems here.
public struct ExpressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error text, worded as DivKit words it.
    public var message: String

    /// Creates an error with the given text.
    public init(_ message: String) { self.message = message }

    /// Whether the text is already a whole DivKit message (`Failed to evaluate [...]. ...`),
    /// so an enclosing call must not wrap it again.
    var isComplete: Bool { message.hasPrefix("Failed to evaluate [") }

    /// Same as ``message``.
    public var description: String { message }
}

extension ExpressionError {
    /// DivKit's general shape for a failure while evaluating a part of an expression.
    static func evaluation(_ expression: String, _ reason: String) -> ExpressionError {
        ExpressionError("Failed to evaluate [\(expression)]. \(reason)")
    }

    static func missingVariable(_ name: String) -> ExpressionError {
        ExpressionError("Variable '\(DiagnosticText.cut(name))' is missing.")
    }

    static let divisionByZero = "Division by zero is not supported."
    static let integerOverflow = "Integer overflow."
}
