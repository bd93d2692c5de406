import HybridDocument
import HybridJSON

/// What a widget may do in answer to a key, a paste or a click; the running app provides it.
/// Widgets change what the user did (`interaction`), write through two-way bindings, and run
/// their actions — never the screen's state directly.
public protocol WidgetHost: AnyObject {
    /// The screen's state as it is now (it may have changed since the last frame).
    var state: JSONValue { get }
    /// Focus, selections, carets and scroll positions of the screen.
    var interaction: Interaction { get set }
    /// Stores `value` at a state path and re-renders what reads it.
    func setState(_ path: String, to value: JSONValue)
    /// Runs `action` for `view` with `event` for script handlers; `scope` replaces the view's
    /// own (a table row's action sees `index` and `row`).
    func run(_ action: Action, for view: View, scope: StateScope?, event: JSONValue)
}

extension WidgetHost {
    /// Runs `action`, if there is one, for `view` in the view's own scope.
    func run(_ action: Action?, for view: View, event: JSONValue) {
        if let action { run(action, for: view, scope: nil, event: event) }
    }

    /// The state value a two-way binding (`"@{form.email}"`) of `view` reads now, or `nil` when
    /// the prop is not bound to the state.
    func boundValue(_ property: PropertyValue?, of view: View) -> JSONValue?? {
        guard let path = view.statePath(of: property) else { return nil }
        return .some(state.value(atPath: path))
    }

    /// Writes a widget's new value through its two-way binding; nothing when it has none.
    func write(_ value: JSONValue, to property: PropertyValue?, of view: View) {
        guard let path = view.statePath(of: property) else { return }
        setState(path, to: value)
    }
}
