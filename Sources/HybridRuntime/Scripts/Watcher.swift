import HybridJSON
import HybridJavaScript

/// A `state.watch` callback and the screen it watches, or a `store.watch` callback.
final class Watcher {
    /// Its handle's id (`remove()`).
    let id: Int
    let path: String
    let callback: ProtectedValue
    /// Whether it watches the app store (else the state of `screen`).
    let watchesStore: Bool
    weak var screen: Screen?
    /// Set while the callback runs, so a watcher that sets its own path is not entered again.
    var isRunning = false

    init(id: Int, path: String, callback: ProtectedValue, screen: Screen?) {
        self.id = id
        self.path = path
        self.callback = callback
        self.screen = screen
        watchesStore = screen == nil
    }

    /// Whether a change at `changed` touches its path: the same path, one inside it, or one
    /// around it.
    func overlaps(_ changed: String) -> Bool {
        JSONValue.pathsOverlap(path, changed)
    }
}
