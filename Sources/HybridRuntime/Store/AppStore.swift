import HybridJSON

/// The app store (SPEC §3): one JSON tree per running app, shared by every screen — where data
/// lives that outlives a screen or is made before one opens (the entry script's fetch, a cart).
/// Screens read it as `@{store.PATH}`, scripts with `store.get/set/watch`, actions write it at
/// `store.PATH`. Every change goes through `set`, which says what changed, so the app can
/// re-render the screens that read it and call the watchers of it.
///
/// Touched on the app's loop thread only.
public final class AppStore {
    /// The whole tree, always an object.
    public private(set) var value: JSONValue

    /// A store whose first value is `initial` (the manifest's `store`).
    public init(_ initial: JSONObject = JSONObject()) {
        value = .object(initial)
    }

    /// The value at `path` (`a.b.0`), all of it for `""`, `.null` where there is none.
    public func value(at path: String) -> JSONValue {
        path.isEmpty ? value : value.value(atPath: path) ?? .null
    }

    /// What a `set` did.
    public enum Change: Equatable {
        /// The value was there already: nothing changed, nobody is told.
        case unchanged
        /// The value changed; `previous` is what was there (`.null` for nothing).
        case changed(previous: JSONValue)
        /// The path cannot be written: empty, or a part of it is neither an object nor an array.
        case refused(String)
    }

    /// Puts `newValue` at `path`, making the objects on the way.
    public func set(_ path: String, to newValue: JSONValue) -> Change {
        guard !path.isEmpty else { return .refused("the path is empty: name a member of the store (store.set(\"cart\", …))") }
        let previous = value.value(atPath: path)
        guard previous != newValue else { return .unchanged }
        guard value.setValue(newValue, atPath: path) else {
            return .refused("cannot set store \(DiagnosticText.quoted(path)): a part of the path is not an object or an array")
        }
        return .changed(previous: previous ?? .null)
    }

    /// Starts again from `initial` (a new bundle version starts).
    public func reset(to initial: JSONObject) {
        value = .object(initial)
    }
}
