import HybridWidgets

/// Where the focus is on each frame: the first focusable view when a screen opens, a
/// neighbour when the focused view goes away, and scroll views moved so it shows.
/// Used on the app's loop thread only.
final class FocusKeeper {
    /// Where the focus was in the focus order, to land near it when its widget goes away.
    private var lastIndex = 0

    /// Focuses `view` on `screen`, letting its widget set up what it shows focused.
    func focus(_ view: View, on screen: Screen) {
        screen.interaction.focused = view.key
        lastIndex = screen.focusables.firstIndex { $0.key == view.key } ?? lastIndex
        view.prepareFocus(&screen.interaction)
    }

    /// Moves the focus `step` places along the focus order, wrapping around.
    func move(by step: Int, on screen: Screen) {
        let candidates = screen.focusables
        guard !candidates.isEmpty else { return }
        let current = candidates.firstIndex { $0.key == screen.interaction.focused }
        let next = current.map { ($0 + step + candidates.count) % candidates.count } ?? (step > 0 ? 0 : candidates.count - 1)
        focus(candidates[next], on: screen)
    }

    /// Up/Down on a widget inside a list item that did not use them (a checkbox in a todo
    /// list): the focus goes to the same widget of the item above or below, or the first
    /// focusable one there. False when the focused widget is in no list, or at its end.
    func moveAcrossItems(by step: Int, on screen: Screen) -> Bool {
        guard let focused = screen.focusedView, let path = screen.path(to: focused.key) else { return false }
        // The innermost list around the focus, and which of its items holds it.
        guard let depth = path.indices.dropLast().last(where: { path[$0].typeName == "list" }) else { return false }
        let list = path[depth], item = path[depth + 1]
        guard let index = list.children.firstIndex(where: { $0 === item }) else { return false }
        let inItem = Self.focusables(in: item)
        let position = inItem.firstIndex { $0 === focused } ?? 0
        var target = index + step
        while list.children.indices.contains(target) {
            let candidates = Self.focusables(in: list.children[target])
            if !candidates.isEmpty {
                focus(candidates[min(position, candidates.count - 1)], on: screen)
                return true
            }
            target += step
        }
        return false
    }

    private static func focusables(in view: View) -> [View] {
        (view.isFocusable ? [view] : []) + view.interactiveChildren.flatMap(focusables(in:))
    }

    /// After a frame: focuses what the first frame shows (the node marked `autofocus`, else the
    /// first focusable one), or the neighbour of a focused view that went away. True when the
    /// focus changed, so the frame must be drawn again.
    func settle(on screen: Screen) -> Bool {
        let candidates = screen.focusables
        if screen.interaction.focused == nil {
            guard let target = candidates.first(where: { $0.node.autofocus }) ?? candidates.first else { return false }
            focus(target, on: screen)
            return true
        }
        guard screen.focusedView == nil, !candidates.isEmpty else { return false }
        focus(candidates[min(lastIndex, candidates.count - 1)], on: screen)
        return true
    }

    /// Scrolls the scroll views around the focused widget so it is in view; true when one
    /// moved. Each focus (and selection) is revealed once, so the wheel can scroll away from it.
    func reveal(on screen: Screen) -> Bool {
        guard let focusedView = screen.focusedView else { return false }
        let token = focusedView.key + "#" + (focusedView.selected.map(String.init) ?? "")
        guard token != screen.revealed else { return false }
        screen.revealed = token
        let focused = focusedView.revealedView
        var moved = false
        for viewport in screen.scrollAncestors(of: focusedView.key) {
            let insets = viewport.layoutStyle.insets
            let top = viewport.frame.y + insets.top
            let bottom = viewport.frame.maxY - insets.bottom
            let current = screen.interaction.scroll[viewport.key] ?? 0
            var offset = current
            if focused.frame.y < top {
                offset -= top - focused.frame.y
            } else if focused.frame.maxY > bottom {
                offset += min(focused.frame.maxY - bottom, focused.frame.y - top)
            }
            offset = max(0, offset)
            if offset != current {
                screen.interaction.scroll[viewport.key] = offset
                moved = true
            }
        }
        return moved
    }
}
