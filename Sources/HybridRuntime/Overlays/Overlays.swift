import HybridCells

/// What the app draws over its screens, in this order: toasts, the first `ui.dialog`, then the
/// developer console (its red box and panel) on top of everything — and the keys they take
/// before the screen does.
struct Overlays {
    var console = DevConsole()
    var toasts = Toasts()
    /// `ui.dialog` boxes: the first shows, with the focus; the others wait their turn.
    private var dialogs: [(box: DialogBox, done: (String?) -> Void)] = []

    /// What a key did to the overlays.
    enum KeyOutcome {
        /// Not theirs: the screen gets it.
        case notTaken
        /// Theirs; only a frame is due.
        case taken
        /// A dialog closed: call `done` with the chosen button's id (nil: cancelled).
        case dialogClosed(done: (String?) -> Void, choice: String?)
    }

    /// Whether a dialog shows (and so holds the focus).
    var hasDialog: Bool { !dialogs.isEmpty }

    /// Queues `box`; `done` gets the chosen button's id, or nil for Esc.
    mutating func openDialog(_ box: DialogBox, done: @escaping (String?) -> Void) {
        dialogs.append((box, done))
    }

    /// Drops every dialog unanswered and every toast (the scripts that showed them went away).
    mutating func removeScriptOverlays() {
        dialogs.removeAll()
        toasts.removeAll()
    }

    /// Takes `key` when it is theirs: the console's keys first; then, while a dialog shows,
    /// every key (the focus is trapped in it).
    mutating func handleKey(_ key: String) -> KeyOutcome {
        if console.handleKey(key) { return .taken }
        guard !dialogs.isEmpty else { return .notTaken }
        switch dialogs[0].box.handleKey(key) {
        case .stays:
            return .taken
        case .closed(let choice):
            return .dialogClosed(done: dialogs.removeFirst().done, choice: choice)
        }
    }

    mutating func draw(into buffer: inout Buffer) {
        toasts.draw(into: &buffer)
        dialogs.first?.box.draw(into: &buffer)
        console.draw(into: &buffer)
    }
}
