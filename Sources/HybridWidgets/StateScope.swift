import HybridDocument
import HybridExpressions
import HybridJSON

/// The variables an expression sees while a screen renders: the screen's state, plus `item`
/// and `index` inside list templates and `props` inside components.
struct StateScope: ExpressionScope {
    let state: JSONValue
    var locals: [(name: String, value: JSONValue)] = []

    func value(of name: String) -> ExpressionValue? {
        let head = name.prefix { $0 != "." }
        // Innermost binding wins, so a nested list's `item` hides the outer one.
        if let local = locals.last(where: { $0.name == head }) {
            if head.count == name.count { return ExpressionValue(json: local.value) }
            return local.value.value(atPath: String(name.dropFirst(head.count + 1))).flatMap(ExpressionValue.init(json:))
        }
        return state.value(atPath: name).flatMap(ExpressionValue.init(json:))
    }

    func with(_ name: String, _ value: JSONValue) -> StateScope {
        var scope = self
        scope.locals.append((name, value))
        return scope
    }
}
