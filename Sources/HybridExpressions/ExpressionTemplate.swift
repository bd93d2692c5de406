/// A string from a document that may hold `@{…}` expressions, parsed once and evaluated as
/// often as needed.
///
/// - A string without `@{…}` is constant (its backslash escapes are still resolved, as DivKit
///   does: `\\@{` stands for a literal `@{`).
/// - A string that is exactly one `@{…}` evaluates to that expression's value, keeping its type.
/// - Anything else evaluates to a `.string`, each expression shown as its display string.
public struct ExpressionTemplate: Sendable {
    private enum Content: Sendable {
        case constant(ExpressionValue)
        case expression(Node)
        case template(Node)
    }

    private let content: Content

    /// The text this template was parsed from.
    public let source: String

    /// Every variable name the template reads (dotted names as written), for dependency
    /// tracking. Names under a `!:` or a short-circuited branch are included too.
    public let variableNames: Set<String>

    /// Parses `source` with the ``FunctionLibrary/standard`` library.
    /// Throws syntax errors with DivKit's texts (e.g. `Error tokenizing '@{ Hello there'.`).
    public init(parsing source: String) throws(ExpressionError) {
        try self.init(parsing: source, functions: .standard)
    }

    /// Parses `source`, resolving function names against `functions`. An unknown function is
    /// not a syntax error: it fails when evaluated, as in DivKit (so `!:` can catch it).
    public init(parsing source: String, functions: FunctionLibrary) throws(ExpressionError) {
        self.source = source
        let lexed = try Lexer.tokenize(source)
        switch lexed.kind {
        case .constant:
            if case .string(let text)? = lexed.tokens.first {
                content = .constant(.string(text))
            } else {
                content = .constant(.string(""))
            }
            variableNames = []
        case .expression:
            let (node, names) = try Parser.parse(lexed.tokens, library: functions)
            content = .expression(node)
            variableNames = names
        case .template:
            let (node, names) = try Parser.parse(lexed.tokens, library: functions)
            content = .template(node)
            variableNames = names
        }
    }

    /// Whether the source holds no `@{…}` at all.
    public var isConstant: Bool {
        if case .constant = content { return true }
        return false
    }

    /// Whether the source is exactly one `@{…}`, so evaluation keeps the value's type.
    public var isSingleExpression: Bool {
        if case .expression = content { return true }
        return false
    }

    /// Evaluates the template with variables from `scope`. Errors carry DivKit's texts.
    public func evaluate(in scope: some ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        switch content {
        case .constant(let value): return value
        case .expression(let node), .template(let node): return try node.evaluate(scope)
        }
    }

    /// Renders the template as text where each `@{…}` that fails renders empty and is handed
    /// to `failed`, the literal text around it staying (SPEC §2: "Hello @{user.name}, welcome!"
    /// with no `user.name` still says "Hello , welcome!"). A single expression that fails is
    /// empty text.
    public func evaluateString(in scope: some ExpressionScope, failed: (ExpressionError) -> Void) -> String {
        do {
            switch content {
            case .constant(let value): return value.displayString
            case .template(let node as TemplateNode): return try node.text(scope) { failed($0) }
            case .expression(let node), .template(let node): return try node.evaluate(scope).displayString
            }
        } catch {
            failed(error)
            return ""
        }
    }

    /// Evaluates the template and renders the result as text (its display string).
    public func evaluateString(in scope: some ExpressionScope) throws(ExpressionError) -> String {
        try evaluate(in: scope).displayString
    }
}
