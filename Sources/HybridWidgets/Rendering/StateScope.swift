import HybridDocument
import HybridExpressions
import HybridJSON

/// The variables an expression sees while a screen renders: the screen's state, plus `item`
/// and `index` inside list templates and `props` inside components — each remembering where
/// in the state it came from, so an input bound to `@{item.title}` can write back.
public struct StateScope: ExpressionScope, Sendable {
    /// A name bound by a list or a component.
    struct Local: Sendable {
        var name: String
        var value: JSONValue
        /// The state path of the whole value (`todos.3` for `item`), when it has one.
        var path: String?
        /// State paths of members (a component's props bound one by one).
        var memberPaths: [String: String] = [:]
    }

    /// The screen's state.
    public let state: JSONValue
    /// The app store (SPEC §3), read as `store.PATH`: the name is reserved in every scope.
    public let store: JSONValue
    /// Records the store paths the screen reads, so a change elsewhere in the store does not
    /// re-render it.
    let storeReads: StoreReads?
    var locals: [Local] = []
    /// Which list item or component instance this is (empty at the top), so a node that
    /// appears many times still gives each view its own key.
    var instance = ""

    /// A scope over `state` and the app store's `store`, recording store reads in `storeReads`.
    public init(state: JSONValue, store: JSONValue = .object(JSONObject()), storeReads: StoreReads? = nil) {
        self.state = state
        self.store = store
        self.storeReads = storeReads
    }

    /// The name bindings read the app store by (`@{store.cart.count}`).
    public static let storeName = "store"

    /// The path inside the app store a dotted name reads (`store.cart.count` → `cart.count`,
    /// `store` → the whole store, `""`), nil for a name that is not the store's.
    public static func storePath(of name: String) -> String? {
        guard name.hasPrefix(storeName) else { return nil }
        let rest = name.dropFirst(storeName.count)
        if rest.isEmpty { return "" }
        return rest.first == "." ? String(rest.dropFirst()) : nil
    }

    public func value(of name: String) -> ExpressionValue? {
        if let path = Self.storePath(of: name) {
            storeReads?.paths.insert(path)
            return (path.isEmpty ? store : store.value(atPath: path)).flatMap(ExpressionValue.init(json:))
        }
        let head = name.prefix { $0 != "." }
        // Innermost binding wins, so a nested list's `item` hides the outer one.
        if let local = locals.last(where: { $0.name == head }) {
            if head.count == name.count { return ExpressionValue(json: local.value) }
            return local.value.value(atPath: String(name.dropFirst(head.count + 1))).flatMap(ExpressionValue.init(json:))
        }
        return state.value(atPath: name).flatMap(ExpressionValue.init(json:))
    }

    /// The state path a dotted name reads (`item.title` → `todos.3.title`), or nil when it
    /// reads something that is not in the state (a computed prop, an index).
    /// A path into the store keeps its `store.` prefix: whoever writes it writes the store.
    public func statePath(of name: String) -> String? {
        let head = String(name.prefix { $0 != "." })
        if head == Self.storeName { return name }
        let rest = name.count > head.count ? String(name.dropFirst(head.count + 1)) : nil
        guard let local = locals.last(where: { $0.name == head }) else { return name }
        if let rest {
            let member = String(rest.prefix { $0 != "." })
            if let memberPath = local.memberPaths[member] {
                return rest.count > member.count ? memberPath + rest.dropFirst(member.count) : memberPath
            }
            return local.path.map { $0 + "." + rest }
        }
        return local.path
    }

    /// This scope with one more variable that is not in the state (a table row's `index`).
    public func adding(_ name: String, _ value: JSONValue) -> StateScope {
        with(Local(name: name, value: value), instance: "")
    }

    /// The same locals over a newer state and, when given, a newer store (after an action
    /// changed them).
    public func with(state: JSONValue, store newStore: JSONValue? = nil) -> StateScope {
        var scope = StateScope(state: state, store: newStore ?? store, storeReads: storeReads)
        scope.locals = locals
        scope.instance = instance
        return scope
    }

    func with(_ local: Local, instance part: String) -> StateScope {
        var scope = self
        scope.locals.append(local)
        scope.instance += part
        return scope
    }
}

/// The app store paths one frame read (`""` for the whole store).
public final class StoreReads: @unchecked Sendable {
    /// The paths read, without the `store.` prefix.
    public var paths: Set<String> = []

    /// An empty record.
    public init() {}
}

/// What the user did to a screen that its state does not hold: which widget has focus, the
/// selected row of lists and tables, scroll positions, caret positions in inputs, the
/// spinner's frame. Views are found by their `key`.
public struct Interaction: Sendable, Equatable {
    /// The focused view's key.
    public var focused: String?
    /// Selected index by view key (lists, tables, selects, tabs not bound to state).
    public var selection: [String: Int] = [:]
    /// Rows scrolled, by view key.
    public var scroll: [String: Int] = [:]
    /// Caret position (in characters) by input key.
    public var caret: [String: Int] = [:]
    /// Text typed into inputs whose value is not bound to state, by input key.
    public var text: [String: String] = [:]
    /// Checkboxes ticked or cleared whose `checked` is not bound to state, by key.
    public var checked: [String: Bool] = [:]
    /// The animation frame of spinners.
    public var tick = 0

    /// Nothing focused, selected or scrolled.
    public init() {}
}
