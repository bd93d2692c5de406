import HybridJSON

/// A lexing failure. `isTokenizing` marks DivKit's "tokenizing" errors, which are reported as
/// `Error tokenizing '<whole input>'.`; the others keep their own text.
struct LexError: Error {
    var message: String
    var isTokenizing: Bool
}

/// The tokens of a whole input and what kind of input it was.
struct LexedTemplate {
    enum Kind {
        /// No `@{…}`: the tokens are at most one string.
        case constant
        /// Exactly one `@{…}` and nothing else: the tokens are that expression's.
        case expression
        /// Text and expressions: the tokens are one template.
        case template
    }
    var tokens: [Token]
    var kind: Kind
}

/// Splits a string that may hold `@{…}` parts into tokens, following DivKit's tokenizer so that
/// edge cases (escapes, unary signs folded into numbers, dotted names, method calls) behave the
/// same.
///
/// The whole input is a template: text with embedded expressions. When the input is exactly one
/// `@{…}` the expression's tokens are returned bare (its value keeps its type); otherwise text
/// and expressions are wrapped in template tokens and the result is a string.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var tokens: [Token] = []
    /// Whether the top-level text held any `@{…}`; a string without one is a constant.
    private var hasExpression = false
    /// Whether the whole input is exactly one `@{…}` (its value keeps its type).
    private var isBareExpression = false
    /// How many string literals holding `@{…}` are open, each a level of recursion.
    private var literalDepth = 0

    private init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    /// Tokenizes `source`; errors carry DivKit's texts.
    static func tokenize(_ source: String) throws(ExpressionError) -> LexedTemplate {
        var lexer = Lexer(source)
        do {
            var tokens: [Token] = []
            try lexer.processTemplate(into: &tokens, isPartOfExpression: false)
            let kind: LexedTemplate.Kind = lexer.isBareExpression ? .expression : lexer.hasExpression ? .template : .constant
            return LexedTemplate(tokens: tokens, kind: kind)
        } catch {
            // DivKit echoes the whole input; a long one is cut (``DiagnosticText``).
            throw ExpressionError(error.isTokenizing ? "Error tokenizing '\(DiagnosticText.cut(source))'." : error.message)
        }
    }

    // MARK: - Templates and strings

    /// Reads text with embedded expressions: the whole input, or a quoted literal inside an
    /// expression (then the opening quote is at `index` and the closing one is consumed).
    private mutating func processTemplate(into tokens: inout [Token], isPartOfExpression: Bool) throws(LexError) {
        if isPartOfExpression {
            guard literalDepth < ExpressionLimits.maximumNesting else {
                throw LexError(message: ExpressionLimits.nestingError.message, isTokenizing: false)
            }
            literalDepth += 1
            forward()
        }
        defer { if isPartOfExpression { literalDepth -= 1 } }
        var templateTokens: [Token] = []
        let leading = try processString(isLiteral: isPartOfExpression)

        if isAtEnd {
            if isPartOfExpression { throw tokenizing("'\\'' expected at end of string literal at \(index)") }
            if let leading { tokens.append(.string(leading)) }
            return
        }
        if isPartOfExpression && isAtEndOfStringLiteral {
            tokens.append(.string(leading ?? ""))
            forward()
            return
        }
        if let leading, isStartOfExpression {
            templateTokens.append(.templateStart)
            templateTokens.append(.string(leading))
        }
        while isStartOfExpression {
            var expressionTokens: [Token] = []
            try processExpression(into: &expressionTokens)
            if !isPartOfExpression { hasExpression = true }
            let trailing = try processString(isLiteral: isPartOfExpression)

            // A lone top-level "@{…}" keeps its value's type: no template around it.
            if !isPartOfExpression && templateTokens.isEmpty && trailing == nil && !isStartOfExpression {
                isBareExpression = true
                tokens.append(contentsOf: expressionTokens)
                return
            }
            if templateTokens.isEmpty { templateTokens.append(.templateStart) }
            templateTokens.append(.expressionStart)
            templateTokens.append(contentsOf: expressionTokens)
            templateTokens.append(.expressionEnd)
            if let trailing { templateTokens.append(.string(trailing)) }
        }
        if isPartOfExpression && !isAtEndOfStringLiteral {
            throw tokenizing("'\\'' expected at end of string literal at \(index)")
        }
        if !templateTokens.isEmpty {
            tokens.append(contentsOf: templateTokens)
            tokens.append(.templateEnd)
        }
        if isPartOfExpression { forward() }
    }

    /// Reads plain text up to the end, the next `@{`, or (in a literal) the closing quote, and
    /// resolves its escapes; `nil` when the text is empty.
    private mutating func processString(isLiteral: Bool) throws(LexError) -> String? {
        let start = index
        while !(isAtEnd || isStartOfExpression || (isLiteral && isAtEndOfStringLiteral)) {
            forward()
        }
        let text = slice(start, index)
        let resolved = try LiteralEscaper.process(text)
        return resolved.isEmpty ? nil : resolved
    }

    // MARK: - Expressions

    /// Reads one `@{…}`; `index` is at the `@`.
    private mutating func processExpression(into tokens: inout [Token]) throws(LexError) {
        forward(2)
        while !isAtEnd && current != "}" {
            let char = current
            switch char {
            case "?": tokens.append(.question); forward()
            case ":": tokens.append(.colon); forward()
            case "+", "-":
                // A sign is unary at the start or after an operator, binary after an operand.
                if Lexer.isUnaryPosition(tokens) {
                    tokens.append(char == "+" ? .unaryPlus : .unaryMinus)
                } else if Lexer.isOperatorPosition(tokens) {
                    tokens.append(.binary(char == "+" ? .plus : .minus))
                } else {
                    throw invalidToken()
                }
                forward()
            case "*": tokens.append(.binary(.multiply)); forward()
            case "/": tokens.append(.binary(.divide)); forward()
            case "%": tokens.append(.binary(.modulo)); forward()
            case "!":
                if next == "=" {
                    tokens.append(.binary(.notEqual)); forward(2)
                } else if next == ":" {
                    tokens.append(.tryFallback); forward(2)
                } else if Lexer.isUnaryPosition(tokens) {
                    tokens.append(.not); forward()
                } else {
                    throw invalidToken()
                }
            case "&":
                guard next == "&" else { throw invalidToken() }
                tokens.append(.and); forward(2)
            case "|":
                guard next == "|" else { throw invalidToken() }
                tokens.append(.or); forward(2)
            case "<":
                if next == "=" { tokens.append(.binary(.lessOrEqual)); forward(2) } else { tokens.append(.binary(.less)); forward() }
            case ">":
                if next == "=" { tokens.append(.binary(.greaterOrEqual)); forward(2) } else { tokens.append(.binary(.greater)); forward() }
            case "=":
                guard next == "=" else { throw invalidToken() }
                tokens.append(.binary(.equal)); forward(2)
            case "(": tokens.append(.leftParen); forward()
            case ")": tokens.append(.rightParen); forward()
            case ",": tokens.append(.comma); forward()
            case "'": try processTemplate(into: &tokens, isPartOfExpression: true)
            default:
                if Lexer.isWhitespace(char) {
                    forward()
                } else if Lexer.isDecimal(char, previous: previous, next: next) {
                    try processNumber(into: &tokens)
                } else if Lexer.isAlphabetic(char) {
                    processIdentifier(into: &tokens)
                } else if char == "." {
                    tokens.append(.dot); forward()
                } else {
                    throw invalidToken()
                }
            }
        }
        guard current == "}" else { throw tokenizing("'}' expected at end of expression at \(index)") }
        forward()
    }

    /// Reads an integer or number literal. A unary minus right before it becomes part of the
    /// literal, which is how `-9223372036854775808` can be written.
    private mutating func processNumber(into tokens: inout [Token]) throws(LexError) {
        let start = index
        let isNegative = tokens.last == .unaryMinus
        if isNegative { tokens.removeLast() }
        repeat { forward() } while Lexer.isDigit(current)

        let isFractional = scalars[start] == "." || Lexer.isDecimal(current, previous: previous, next: next)
        if isFractional {
            while Lexer.isDecimal(current, previous: previous, next: next) { forward() }
        }
        let text = (isNegative ? "-" : "") + slice(start, index)
        if isFractional {
            guard let value = Double(text) else {
                throw LexError(message: "Value \(text) can't be converted to Number type.", isTokenizing: false)
            }
            tokens.append(.number(value))
        } else {
            guard let value = Int(text) else {
                throw LexError(message: "Value \(text) can't be converted to Integer type.", isTokenizing: false)
            }
            tokens.append(.integer(value))
        }
    }

    /// Reads a name. Dots join segments into one variable name (`user.name`, `var.`); a name
    /// followed by `(` is a function, and its last dotted segment a method on what precedes
    /// it (`string.var.toString()` is variable `string.var`, `.`, method `toString`).
    private mutating func processIdentifier(into tokens: inout [Token]) {
        var parts: [String] = []
        var endsWithDot = false
        repeat {
            let start = index
            endsWithDot = false
            while Lexer.isIdentifierCharacter(current) { forward() }
            parts.append(slice(start, index))
            if current == "." {
                forward()
                endsWithDot = true
            }
        } while Lexer.isIdentifierCharacter(current) || current == "."

        while Lexer.isWhitespace(current) { forward() }

        var function: String?
        if current == "(" { function = parts.removeLast() }
        if !parts.isEmpty {
            if parts.count == 1, parts[0] == "true" || parts[0] == "false" {
                tokens.append(.boolean(parts[0] == "true"))
            } else {
                tokens.append(.variable(parts.joined(separator: ".") + (endsWithDot && function == nil ? "." : "")))
            }
            if function != nil { tokens.append(.dot) }
        }
        if let function { tokens.append(.function(function)) }
    }

    // MARK: - Character classes and state

    private static func isUnaryPosition(_ tokens: [Token]) -> Bool {
        !isOperatorPosition(tokens) && !(tokens.last?.isUnary ?? false)
    }

    private static func isOperatorPosition(_ tokens: [Token]) -> Bool {
        guard let last = tokens.last, !last.isUnary else { return false }
        return last.isOperand || last == .rightParen || last == .templateEnd
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }
    private static func isAlphabetic(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_"
    }
    private static func isIdentifierCharacter(_ c: Unicode.Scalar) -> Bool { isAlphabetic(c) || isDigit(c) }
    private static func isWhitespace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\r" || c == "\n" }

    private static func isDecimal(_ c: Unicode.Scalar, previous: Unicode.Scalar, next: Unicode.Scalar) -> Bool {
        if isDigit(c) { return true }
        switch c {
        case ".": return isDigit(next)
        case "e", "E": return isDigit(previous) && (isDigit(next) || next == "+" || next == "-")
        case "+", "-": return (previous == "e" || previous == "E") && isDigit(next)
        default: return false
        }
    }

    /// U+0000 stands for "no character" past either end, as in DivKit's tokenizer.
    private var current: Unicode.Scalar { index < scalars.count ? scalars[index] : "\0" }
    private var next: Unicode.Scalar { index + 1 < scalars.count ? scalars[index + 1] : "\0" }
    private var previous: Unicode.Scalar { index >= 1 && index - 1 < scalars.count ? scalars[index - 1] : "\0" }
    private var isAtEnd: Bool { index >= scalars.count }

    private var isStartOfExpression: Bool { current == "@" && previous != "\\" && next == "{" }

    /// A quote ends a literal unless an odd number of backslashes precedes it.
    private var isAtEndOfStringLiteral: Bool {
        guard current == "'" else { return false }
        var backslashes = 0
        var position = index - 1
        while position >= 0 && scalars[position] == "\\" {
            backslashes += 1
            position -= 1
        }
        return backslashes % 2 == 0
    }

    private mutating func forward(_ count: Int = 1) { index += count }

    /// The text of `scalars[from..<to]`, encoded into one buffer: appending the scalars to a
    /// `String.UnicodeScalarView` took a generic path that was four fifths of tokenizing (the
    /// todo sample's bindings: 630,000 instructions, now 95,000).
    private func slice(_ from: Int, _ to: Int) -> String {
        let end = min(to, scalars.count)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(end - from)
        for scalar in scalars[from..<end] {
            UTF8.encode(scalar) { utf8.append($0) }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    private func tokenizing(_ message: String) -> LexError { LexError(message: message, isTokenizing: true) }

    private func invalidToken() -> LexError {
        LexError(message: "Invalid token '\(Character(current))' at position \(index)", isTokenizing: false)
    }
}
