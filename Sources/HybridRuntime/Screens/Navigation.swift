/// The open screens and where screens come from: the router a bundle set up, and the host's
/// own, to go back to when the bundle is unloaded.
struct Navigation {
    /// Screens, the one on top last.
    var screens: [Screen] = []
    /// Routes of the running bundle (or of the host, without one).
    var router = Router()
    /// The router as the host set it up, kept while a bundle runs.
    private var hostRouter: Router?

    /// Keeps the router as the host set it up, to restore when a bundle is unloaded.
    mutating func rememberHostRouter() {
        hostRouter = router
    }

    /// Closes every screen and goes back to the host's routes.
    mutating func reset() {
        screens.removeAll()
        if let hostRouter { router = hostRouter }
    }
}
