/// A node of a parsed expression. Parsing builds the tree once; evaluating walks it with no
/// re-parsing and no string building unless an error is being reported.
///
/// Nodes are immutable after construction, which is why sharing them across threads is safe.
class Node: @unchecked Sendable, CustomStringConvertible {
    /// The number of nodes on the longest path down from this one. Evaluating, printing and
    /// freeing a tree recurse that deep, so the parser refuses trees taller than
    /// ``ExpressionLimits/maximumTreeHeight``.
    let height: Int

    init(children: [Node] = []) {
        height = 1 + (children.lazy.map(\.height).max() ?? 0)
    }

    /// Evaluates the node against `scope`.
    func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        fatalError("Node subclasses override evaluate")
    }

    /// The node written back roughly as DivKit prints it in error texts.
    var description: String { "" }
}

/// A literal value.
final class LiteralNode: Node, @unchecked Sendable {
    let value: ExpressionValue
    init(_ value: ExpressionValue) {
        self.value = value
        super.init()
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue { value }
    override var description: String { value.messageFormat }
}

/// A variable (possibly a dotted name or state path), resolved by the scope.
final class VariableNode: Node, @unchecked Sendable {
    let name: String
    init(_ name: String) {
        self.name = name
        super.init()
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        guard let value = scope.value(of: name) else { throw .missingVariable(name) }
        return value
    }
    override var description: String { name }
}

/// Unary `+`, `-` or `!`.
final class UnaryNode: Node, @unchecked Sendable {
    enum Operator: String { case plus = "+", minus = "-", not = "!" }
    let op: Operator
    let operand: Node
    init(_ op: Operator, _ operand: Node) {
        self.op = op
        self.operand = operand
        super.init(children: [operand])
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        try Operators.unary(op, try operand.evaluate(scope))
    }
    override var description: String { op.rawValue + operand.description }
}

/// Arithmetic, comparison and equality: both sides are evaluated.
final class BinaryNode: Node, @unchecked Sendable {
    let op: BinaryOperator
    let left: Node
    let right: Node
    init(_ op: BinaryOperator, _ left: Node, _ right: Node) {
        self.op = op
        self.left = left
        self.right = right
        super.init(children: [left, right])
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        let l = try left.evaluate(scope)
        let r = try right.evaluate(scope)
        return try Operators.binary(op, l, r)
    }
    override var description: String { "(\(left) \(op.symbol) \(right))" }
}

/// `&&` and `||`, which evaluate the right side only when needed.
final class LogicalNode: Node, @unchecked Sendable {
    let isAnd: Bool
    let left: Node
    let right: Node
    init(isAnd: Bool, _ left: Node, _ right: Node) {
        self.isAnd = isAnd
        self.left = left
        self.right = right
        super.init(children: [left, right])
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        let symbol = isAnd ? "&&" : "||"
        let l = try left.evaluate(scope)
        guard case .boolean(let lhs) = l else {
            throw .evaluation("\(l.displayString) \(symbol) ...", "'\(symbol)' must be called with boolean operands.")
        }
        if isAnd != lhs { return l }  // false && _ is false, true || _ is true
        let r = try right.evaluate(scope)
        guard case .boolean = r else { throw Operators.typeError(symbol, l, r) }
        return r
    }
    override var description: String { "(\(left) \(isAnd ? "&&" : "||") \(right))" }
}

/// `condition ? then : else`.
final class TernaryNode: Node, @unchecked Sendable {
    let condition: Node
    let then: Node
    let otherwise: Node
    init(_ condition: Node, _ then: Node, _ otherwise: Node) {
        self.condition = condition
        self.then = then
        self.otherwise = otherwise
        super.init(children: [condition, then, otherwise])
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        guard case .boolean(let flag) = try condition.evaluate(scope) else {
            throw .evaluation("\(condition) ? \(then) : \(otherwise)",
                              "Ternary must be called with a Boolean value as a condition.")
        }
        return try flag ? then.evaluate(scope) : otherwise.evaluate(scope)
    }
    override var description: String { "(\(condition) ? \(then) : \(otherwise))" }
}

/// `value !: fallback`: the fallback's value when evaluating `value` fails for any reason.
final class TryNode: Node, @unchecked Sendable {
    let value: Node
    let fallback: Node
    init(_ value: Node, _ fallback: Node) {
        self.value = value
        self.fallback = fallback
        super.init(children: [value, fallback])
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        do {
            return try value.evaluate(scope)
        } catch {
            return try fallback.evaluate(scope)
        }
    }
    override var description: String { "(\(value) !: \(fallback))" }
}

/// A function call `name(args)` or a method call `receiver.name(args)` (receiver first in
/// `arguments`). Overloads are looked up once, at parse time; the one to run is picked from
/// the argument types at each evaluation.
final class CallNode: Node, @unchecked Sendable {
    let name: String
    let arguments: [Node]
    let overloads: [ExpressionFunction]
    let isMethod: Bool
    init(name: String, arguments: [Node], overloads: [ExpressionFunction], isMethod: Bool) {
        self.name = name
        self.arguments = arguments
        self.overloads = overloads
        self.isMethod = isMethod
        super.init(children: arguments)
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        var values: [ExpressionValue] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments { values.append(try argument.evaluate(scope)) }
        // DivKit names an unknown function bare when it has no arguments.
        if overloads.isEmpty && values.isEmpty { throw ExpressionError("Unknown function name: \(name).") }
        do throws(ExpressionError) {
            guard !overloads.isEmpty else {
                throw ExpressionError("Unknown \(isMethod ? "method" : "function") name: \(name).")
            }
            let function = overloads.count == 1 && overloads[0].fits(values)
                ? overloads[0]
                : try OverloadResolver.resolve(overloads, values.map(\.type), isMethod: isMethod)
            return try ExpressionLimits.checked(function.body(function.cast(values), scope))
        } catch {
            // Bodies throw bare reasons; DivKit shows the call with its argument values.
            if error.isComplete { throw error }
            let shown = isMethod ? Array(values.dropFirst()) : values
            throw .evaluation("\(name)(\(shown.map(\.messageFormat).joined(separator: ", ")))", error.message)
        }
    }
    override var description: String {
        if isMethod, let receiver = arguments.first {
            return "\(receiver).\(name)(\(arguments.dropFirst().map(\.description).joined(separator: ", ")))"
        }
        return "\(name)(\(arguments.map(\.description).joined(separator: ", ")))"
    }
}

/// Text with embedded expressions; evaluates to the concatenation of the parts' display strings.
final class TemplateNode: Node, @unchecked Sendable {
    let parts: [Node]
    init(_ parts: [Node]) {
        self.parts = parts
        super.init(children: parts)
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        .string(try text(scope) { (error) throws(ExpressionError) in throw error })
    }
    /// The parts' display strings joined. A part that fails is handed to `failed`, which throws
    /// it or lets the text go on without it (the text around it stays); text past the string
    /// limit throws either way.
    func text(_ scope: any ExpressionScope, failed: (ExpressionError) throws(ExpressionError) -> Void) throws(ExpressionError) -> String {
        var text = ""
        for part in parts {
            do {
                text += try part.evaluate(scope).displayString
            } catch {
                try failed(error)
            }
            guard text.utf8.count <= ExpressionLimits.maximumStringBytes else { throw ExpressionError(ExpressionLimits.stringReason) }
        }
        return text
    }
    override var description: String { parts.map(\.description).joined() }
}

/// `array.filter(predicate)`, where `predicate` names a user-defined function: the items for
/// which it returns `true`. Each item picks the predicate's overload by its type (text that is
/// a colour or URL may match a colour or URL parameter).
final class FilterNode: Node, @unchecked Sendable {
    let receiver: Node
    let predicate: String
    let overloads: [ExpressionFunction]
    init(receiver: Node, predicate: String, overloads: [ExpressionFunction]) {
        self.receiver = receiver
        self.predicate = predicate
        self.overloads = overloads
        super.init(children: [receiver])
    }
    override func evaluate(_ scope: any ExpressionScope) throws(ExpressionError) -> ExpressionValue {
        let value = try receiver.evaluate(scope)
        do throws(ExpressionError) {
            guard case .array(let items) = value else {
                throw ExpressionError("Method has no matching overload for given argument types: \(value.type.displayName).")
            }
            if items.isEmpty { return .array([]) }
            let unary = overloads.filter { $0.parameters.count == 1 }
            guard let first = unary.first else {
                throw ExpressionError("Exactly \(overloads[0].parameters.count) argument(s) expected.")
            }
            var kept: [ExpressionValue] = []
            for item in items {
                guard let (function, argument) = FilterNode.pick(unary, for: item) else {
                    throw ExpressionError("Invalid argument type: expected \(first.parameters[0].displayName), got \(item.type.displayName).")
                }
                guard case .boolean(let keep) = try function.body([argument], scope) else {
                    throw ExpressionError("Function must return boolean value.")
                }
                if keep { kept.append(item) }
            }
            return .array(kept)
        } catch {
            throw .evaluation("filter(\(predicate))", error.message)
        }
    }

    /// The overload taking `item`, and `item` converted to its parameter type.
    static func pick(_ overloads: [ExpressionFunction], for item: ExpressionValue) -> (ExpressionFunction, ExpressionValue)? {
        if let exact = overloads.first(where: { $0.parameters[0] == item.type }) {
            if case .string(let text) = item {
                // Text that reads as a colour or URL goes to such an overload first.
                if let color = overloads.first(where: { $0.parameters[0] == .color }), let parsed = ExpressionColor(hex: text) {
                    return (color, .color(parsed))
                }
                if let url = overloads.first(where: { $0.parameters[0] == .url }), text.contains("://") {
                    return (url, .url(text))
                }
            }
            return (exact, item)
        }
        switch item {
        case .integer(let value):
            if let number = overloads.first(where: { $0.parameters[0] == .number }) { return (number, .number(Double(value))) }
        case .string(let text):
            if let color = overloads.first(where: { $0.parameters[0] == .color }), let parsed = ExpressionColor(hex: text) {
                return (color, .color(parsed))
            }
            if let url = overloads.first(where: { $0.parameters[0] == .url }) { return (url, .url(text)) }
        default:
            break
        }
        return nil
    }

    override var description: String { "\(receiver).filter(\(predicate))" }
}
