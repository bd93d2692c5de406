/// Where an expression's variables come from.
///
/// The evaluator asks for each variable by the full name written in the expression, which may
/// be dotted (`user.name`); resolving dotted names is the scope's job (see ``VariableScope``).
public protocol ExpressionScope {
    /// The value of the variable called `name`, or `nil` when there is no such variable.
    func value(of name: String) -> ExpressionValue?

    /// A value kept by the host across sessions (DivKit's stored values, read by
    /// `getStoredIntegerValue('name', fallback)` and the like); `nil` when there is none.
    func storedValue(of name: String) -> ExpressionValue?
}

extension ExpressionScope {
    /// No stored values unless the scope provides them.
    public func storedValue(of name: String) -> ExpressionValue? { nil }
}

/// The parameters of a user-defined function over the scope it was called from.
///
/// User functions call the ones defined before them, so one call may fan out into
/// exponentially many, or nest as deep as there are functions: each call's scope carries how
/// deep it is and the count of calls shared by the whole evaluation, both bounded
/// (``ExpressionLimits``).
struct ArgumentScope: ExpressionScope {
    let names: [String]
    let values: [ExpressionValue]
    let parent: any ExpressionScope
    /// How many user function calls enclose this one, itself included.
    let depth: Int
    /// The calls left to this evaluation, shared by every call under the outermost one.
    let budget: CallBudget

    /// The scope of a call made from `parent`; refused past the nesting or call limits.
    init(names: [String], values: [ExpressionValue], parent: any ExpressionScope) throws(ExpressionError) {
        let caller = parent as? ArgumentScope
        depth = (caller?.depth ?? 0) + 1
        budget = caller?.budget ?? CallBudget()
        guard depth <= ExpressionLimits.maximumNesting else { throw ExpressionLimits.nestingError }
        guard budget.spend() else { throw ExpressionError(ExpressionLimits.callsReason) }
        (self.names, self.values, self.parent) = (names, values, parent)
    }

    func value(of name: String) -> ExpressionValue? {
        if let index = names.firstIndex(of: name) { return values[index] }
        return parent.value(of: name)
    }

    func storedValue(of name: String) -> ExpressionValue? { parent.storedValue(of: name) }
}

/// The user function calls one evaluation may still make.
final class CallBudget {
    private var remaining = ExpressionLimits.maximumUserCalls

    /// Takes one call; false when none are left.
    func spend() -> Bool {
        guard remaining > 0 else { return false }
        remaining -= 1
        return true
    }
}

/// A scope over a fixed set of declared variables.
///
/// A name that is declared is returned as is (DivKit allows dots inside variable names, so
/// `string.var` may be one variable). A dotted name that is not declared is walked as a path
/// (HybridTerm's extension for screen state): the longest declared prefix is the variable, and
/// each following segment is a dict key or, on an array, a zero-based index —
/// `user.name`, `items.0.title`.
public struct VariableScope: ExpressionScope, Sendable {
    /// The declared variables by name.
    public var variables: [String: ExpressionValue]

    /// Creates a scope over the given variables.
    public init(_ variables: [String: ExpressionValue]) { self.variables = variables }

    /// The declared variable `name`, or the value found by walking `name` as a path.
    public func value(of name: String) -> ExpressionValue? {
        if let value = variables[name] { return value }
        // Slow path only for names that are not declared: try to read them as a state path.
        guard name.utf8.contains(UInt8(ascii: ".")) else { return nil }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count <= Self.segmentsTriedAsPrefixes else { return longPath(name, segments) }
        var split = segments.count - 1
        while split >= 1 {
            let head = segments[..<split].joined(separator: ".")
            if let root = variables[head] {
                return VariableScope.walk(root, segments[split...])
            }
            split -= 1
        }
        return nil
    }

    /// Up to this many segments, each prefix of a dotted name is looked up (cheap for the
    /// names people write); longer names are matched against the declared names instead, so a
    /// name of thousands of segments costs one pass, not one lookup per prefix.
    static let segmentsTriedAsPrefixes = 8

    /// `value(of:)` for a name of many segments: the longest declared name it starts with.
    private func longPath(_ name: String, _ segments: [String]) -> ExpressionValue? {
        let head = variables.keys
            .filter { name.hasPrefix($0 + ".") }
            .max { $0.utf8.count < $1.utf8.count }
        guard let head, let root = variables[head] else { return nil }
        return VariableScope.walk(root, segments[(head.split(separator: ".", omittingEmptySubsequences: false).count)...])
    }

    /// Follows dict keys and array indices from `root`; `nil` when a step does not exist.
    static func walk(_ root: ExpressionValue, _ path: ArraySlice<String>) -> ExpressionValue? {
        var current = root
        for segment in path {
            switch current {
            case .dict(let entries):
                guard let next = entries[segment] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(segment), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}
