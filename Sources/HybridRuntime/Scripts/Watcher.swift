import HybridJavaScript

/// A `state.watch` callback and the screen it watches (any screen on top when it was
/// registered before the first one opened).
final class Watcher {
    let path: String
    let callback: ProtectedValue
    let watchesAnyScreen: Bool
    weak var screen: Screen?
    /// Set while the callback runs, so a watcher that sets its own path is not entered again.
    var isRunning = false

    init(path: String, callback: ProtectedValue, screen: Screen?) {
        self.path = path
        self.callback = callback
        self.screen = screen
        watchesAnyScreen = screen == nil
    }

    /// Whether it watches `candidate`, `top` being the screen on top.
    func watches(_ candidate: Screen, top: Screen?) -> Bool {
        watchesAnyScreen ? candidate === top : candidate === screen
    }

    /// Whether a change at `changed` touches its path: the same path, one inside it, or one
    /// around it.
    func overlaps(_ changed: String) -> Bool {
        path == changed || changed.hasPrefix(path + ".") || path.hasPrefix(changed + ".")
    }
}
