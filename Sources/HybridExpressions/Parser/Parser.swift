/// Builds the node tree from tokens by recursive descent, with DivKit's precedence
/// (loosest first):
///
///     ternary    -> or ( "?" ternary ":" ternary )?
///     or         -> and ( "||" and )*
///     and        -> equality ( "&&" equality )*
///     equality   -> comparison ( ( "==" | "!=" ) comparison )*
///     comparison -> try ( ( "<" | "<=" | ">" | ">=" ) try )*
///     try        -> sum ( "!:" sum )*
///     sum        -> factor ( ( "+" | "-" ) factor )*
///     factor     -> unary ( ( "*" | "/" | "%" ) unary )*
///     unary      -> ( "+" | "-" | "!" ) unary | method
///     method     -> call ( "." function-call )*
///     call       -> literal | variable | function-call | "(" expression ")" | template
///
/// `!:` sits between comparison and sum: that is what DivKit's conformance data requires
/// (`x !: 8 + 4 > 2` is `(x !: (8 + 4)) > 2`).
///
/// Recursion is bounded (``ExpressionLimits``): every way to nest goes through `expression()`
/// or `unary()`, which count their depth, and every node built is checked for height, so no
/// input can overflow the stack here or later when the tree is evaluated.
struct Parser {
    private let tokens: [Token]
    private var index = 0
    private var depth = 0
    private let library: FunctionLibrary
    /// Every variable name read, for dependency tracking.
    private(set) var variables: Set<String> = []

    private init(_ tokens: [Token], library: FunctionLibrary) {
        self.tokens = tokens
        self.library = library
    }

    /// Parses a complete token list into one node.
    static func parse(_ tokens: [Token], library: FunctionLibrary) throws(ExpressionError) -> (Node, Set<String>) {
        guard !tokens.isEmpty else { throw ExpressionError("Expression expected") }
        var parser = Parser(tokens, library: library)
        let node = try parser.expression()
        guard parser.isAtEnd else { throw ExpressionError("Expression expected") }
        return (node, parser.variables)
    }

    // MARK: Grammar

    private mutating func expression() throws(ExpressionError) -> Node {
        try enter()
        defer { depth -= 1 }
        let condition = try or()
        guard current == .question else { return condition }
        forward()
        let then = try expression()
        guard current == .colon else { throw ExpressionError("':' expected in ternary-if-else expression") }
        forward()
        let otherwise = try expression()
        return try limited(TernaryNode(condition, then, otherwise))
    }

    private mutating func or() throws(ExpressionError) -> Node {
        var left = try and()
        while current == .or {
            forward()
            left = try limited(LogicalNode(isAnd: false, left, try and()))
        }
        return left
    }

    private mutating func and() throws(ExpressionError) -> Node {
        var left = try equality()
        while current == .and {
            forward()
            left = try limited(LogicalNode(isAnd: true, left, try equality()))
        }
        return left
    }

    private mutating func equality() throws(ExpressionError) -> Node {
        var left = try comparison()
        while case .binary(let op)? = current, op == .equal || op == .notEqual {
            forward()
            left = try limited(BinaryNode(op, left, try comparison()))
        }
        return left
    }

    private mutating func comparison() throws(ExpressionError) -> Node {
        var left = try tryLevel()
        while case .binary(let op)? = current, [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(op) {
            forward()
            left = try limited(BinaryNode(op, left, try tryLevel()))
        }
        return left
    }

    private mutating func tryLevel() throws(ExpressionError) -> Node {
        var left = try sum()
        while current == .tryFallback {
            forward()
            left = try limited(TryNode(left, try sum()))
        }
        return left
    }

    private mutating func sum() throws(ExpressionError) -> Node {
        var left = try factor()
        while case .binary(let op)? = current, op == .plus || op == .minus {
            forward()
            left = try limited(BinaryNode(op, left, try factor()))
        }
        return left
    }

    private mutating func factor() throws(ExpressionError) -> Node {
        var left = try unary()
        while case .binary(let op)? = current, op == .multiply || op == .divide || op == .modulo {
            forward()
            left = try limited(BinaryNode(op, left, try unary()))
        }
        return left
    }

    private mutating func unary() throws(ExpressionError) -> Node {
        let op: UnaryNode.Operator
        switch current {
        case .unaryPlus?: op = .plus
        case .unaryMinus?: op = .minus
        case .not?: op = .not
        default: return try method()
        }
        forward()
        try enter()
        defer { depth -= 1 }
        return try limited(UnaryNode(op, try unary()))
    }

    private mutating func method() throws(ExpressionError) -> Node {
        var node = try call()
        while current == .dot {
            forward()
            guard case .function(let name)? = current else { throw ExpressionError("Method expected after .") }
            forward()
            node = try limited(try functionCall(name, receiver: node))
        }
        return node
    }

    private mutating func call() throws(ExpressionError) -> Node {
        guard let token = current else { throw ExpressionError("Expression expected") }
        forward()
        switch token {
        case .integer(let value): return LiteralNode(.integer(value))
        case .number(let value): return LiteralNode(.number(value))
        case .string(let value): return LiteralNode(.string(value))
        case .boolean(let value): return LiteralNode(.boolean(value))
        case .variable(let name):
            variables.insert(name)
            return VariableNode(name)
        case .function(let name):
            return try limited(try functionCall(name, receiver: nil))
        case .leftParen:
            let inner = try expression()
            guard current == .rightParen else { throw ExpressionError("')' expected after expression") }
            forward()
            return inner
        case .templateStart:
            return try template()
        default:
            throw ExpressionError("Expression expected")
        }
    }

    /// `name(args)`; `index` is just past the name. A method's receiver becomes argument 0.
    private mutating func functionCall(_ name: String, receiver: Node?) throws(ExpressionError) -> Node {
        guard current == .leftParen else { throw ExpressionError("'(' expected after function call") }
        forward()
        var arguments: [Node] = receiver.map { [$0] } ?? []
        while current != .rightParen {
            guard !isAtEnd else { throw ExpressionError("expected ')' after a function call") }
            arguments.append(try expression())
            if current == .comma {
                forward()
                // A trailing comma would otherwise be silently accepted.
                if current == .rightParen { throw ExpressionError("Expression expected") }
            } else if current != .rightParen {
                throw ExpressionError("expected ')' after a function call")
            }
        }
        forward()
        let isMethod = receiver != nil
        // `array.filter(predicate)`: a bare name that is a user-defined function is passed as
        // the function itself, not read as a variable.
        if isMethod, name == "filter", arguments.count == 2, let reference = arguments[1] as? VariableNode,
           let predicates = library.functions[reference.name], predicates.contains(where: { $0.parameterNames != nil })
        {
            return FilterNode(receiver: arguments[0], predicate: reference.name, overloads: predicates)
        }
        let overloads = (isMethod ? library.methods[name] : library.functions[name]) ?? []
        return CallNode(name: name, arguments: arguments, overloads: overloads, isMethod: isMethod)
    }

    /// The parts of a string template; `index` is just past its start token.
    private mutating func template() throws(ExpressionError) -> Node {
        var parts: [Node] = []
        while let token = current, token != .templateEnd {
            forward()
            switch token {
            case .string(let text):
                parts.append(LiteralNode(.string(text)))
            case .expressionStart:
                if current == .expressionEnd { forward(); continue }  // "@{}" contributes nothing
                parts.append(try expression())
                guard current == .expressionEnd else { throw ExpressionError("Expression expected") }
                forward()
            default:
                throw ExpressionError("Expression expected")
            }
        }
        guard current == .templateEnd else { throw ExpressionError("expected ''' at end of a string template") }
        forward()
        return try limited(TemplateNode(parts))
    }

    // MARK: Limits

    /// Goes one level deeper, refusing past ``ExpressionLimits/maximumNesting``.
    private mutating func enter() throws(ExpressionError) {
        guard depth < ExpressionLimits.maximumNesting else { throw ExpressionLimits.nestingError }
        depth += 1
    }

    /// `node`, unless it is taller than ``ExpressionLimits/maximumTreeHeight``.
    private func limited(_ node: Node) throws(ExpressionError) -> Node {
        guard node.height <= ExpressionLimits.maximumTreeHeight else { throw ExpressionLimits.heightError }
        return node
    }

    // MARK: State

    private var current: Token? { index < tokens.count ? tokens[index] : nil }
    private var isAtEnd: Bool { index >= tokens.count }
    private mutating func forward() { index += 1 }
}
