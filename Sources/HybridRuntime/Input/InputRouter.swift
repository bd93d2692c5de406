import HybridDocument
import HybridJSON
import HybridTerminal
import HybridWidgets

/// Keys, pastes and the mouse (SPEC §2 "Focus and keys"): the focused widget gets a key first
/// (an input takes text and editing keys), then focus movement, then the screen's `keys`.
/// What a key does to a widget is the widget's own (`Widget.handleKey`); this routes it.
/// Used on the app's loop thread only.
final class InputRouter {
    private unowned let app: HybridApp
    /// Focus: moved by keys and clicks here, settled and revealed on each frame by the app.
    let focus = FocusKeeper()

    init(app: HybridApp) {
        self.app = app
    }

    /// Handles one input event on the screen on top.
    func handle(_ event: InputEvent) {
        guard let screen = app.currentScreen else { return }
        switch event {
        case .key(let name):
            app.status = nil
            handleKey(name, on: screen)
            app.needsFrame = true
        case .paste(let text):
            app.status = nil
            if let view = screen.focusedView { _ = view.paste(text, host: host(for: screen)) }
            app.needsFrame = true
        case .mouse(let mouse):
            // Releases and moves change nothing; redrawing for them (or clearing the status
            // line a click just set) would only cost.
            handleMouse(mouse, on: screen)
        }
    }

    private func handleKey(_ key: String, on screen: Screen) {
        if key == "ctrl+c" { return app.quit() }
        let binding = screen.document.keys.first { $0.key == key }
        let isFocusKey = key == "tab" || key == "shift+tab"
        // A screen that binds Tab or Shift+Tab takes them over from focus movement.
        if binding == nil, isFocusKey { return focus.move(by: key == "tab" ? 1 : -1, on: screen) }
        if let focused = screen.focusedView, binding == nil || !isFocusKey, focused.handleKey(key, host: host(for: screen)) { return }
        if binding == nil, key == "up" || key == "down", focus.moveAcrossItems(by: key == "up" ? -1 : 1, on: screen) { return }
        if let binding {
            app.run(binding.action, on: screen, view: nil, event: .object(JSONObject([("type", .string("key")), ("key", .string(key))])))
        }
    }

    private func handleMouse(_ mouse: MouseEvent, on screen: Screen) {
        switch mouse.kind {
        case .press(button: 0):
            app.status = nil
            app.needsFrame = true
            guard let view = screen.focusable(at: mouse.x, mouse.y) else { return }
            focus.focus(view, on: screen)
            view.click(x: mouse.x, y: mouse.y, host: host(for: screen))
        case .scrollUp, .scrollDown:
            // The wheel scrolls the innermost scroll view under the pointer, focusable or not;
            // it never acts on widgets (a select must not change under a passing wheel).
            guard let viewport = screen.scrollView(at: mouse.x, mouse.y) else { return }
            viewport.scroll(by: mouse.kind == .scrollUp ? -3 : 3, in: &screen.interaction)
            app.needsFrame = true
        default:
            break
        }
    }

    private func host(for screen: Screen) -> ScreenHost {
        ScreenHost(app: app, screen: screen)
    }
}

/// What widgets of one screen may do in answer to input: the screen's state and interaction,
/// and the app's state changes and actions.
private final class ScreenHost: WidgetHost {
    private unowned let app: HybridApp
    private let screen: Screen

    init(app: HybridApp, screen: Screen) {
        self.app = app
        self.screen = screen
    }

    var state: JSONValue { screen.state }

    var interaction: Interaction {
        get { screen.interaction }
        set { screen.interaction = newValue }
    }

    func setState(_ path: String, to value: JSONValue) {
        app.setState(path, to: value, on: screen)
    }

    func run(_ action: Action, for view: View, scope: StateScope?, event: JSONValue) {
        app.run(action, on: screen, view: view, scope: scope, event: event)
    }
}
