import HybridDocument
import HybridJSON
import HybridTerminal
import HybridWidgets

/// Keys, pastes and the mouse (SPEC §2 "Focus and keys"): a focused input takes text and
/// editing keys first, then focus movement and widget keys, then the screen's `keys`.
extension HybridApp {
    /// Handles one input event.
    public func handle(_ event: InputEvent) {
        guard let screen = currentScreen else { return }
        switch event {
        case .key(let name):
            status = nil
            handleKey(name, on: screen)
            needsFrame = true
        case .paste(let text):
            status = nil
            if let view = screen.focusedView, case .input = view.content { insert(text, into: view, on: screen) }
            needsFrame = true
        case .mouse(let mouse):
            // Releases and moves change nothing; redrawing for them (or clearing the status
            // line a click just set) would only cost.
            handleMouse(mouse, on: screen)
        }
    }

    private func handleKey(_ key: String, on screen: Screen) {
        if key == "ctrl+c" { return quit() }
        let focused = screen.focusedView
        if let focused, editInput(focused, key: key, on: screen) { return }
        let binding = screen.document.keys.first { $0.key == key }
        // A screen that binds Tab or Shift+Tab takes them over from focus movement.
        if binding == nil {
            switch key {
            case "tab": return moveFocus(by: 1, on: screen)
            case "shift+tab": return moveFocus(by: -1, on: screen)
            default: break
            }
        }
        if let focused, binding == nil || !["tab", "shift+tab"].contains(key), operate(focused, key: key, on: screen) { return }
        if let binding {
            run(binding.action, on: screen, view: nil, event: .object(JSONObject([("type", .string("key")), ("key", .string(key))])))
        }
    }

    private func moveFocus(by step: Int, on screen: Screen) {
        let candidates = screen.focusables
        guard !candidates.isEmpty else { return }
        let current = candidates.firstIndex { $0.key == screen.interaction.focused }
        let next = current.map { ($0 + step + candidates.count) % candidates.count } ?? (step > 0 ? 0 : candidates.count - 1)
        focus(candidates[next], in: screen)
    }

    // MARK: Inputs

    /// Typing and editing keys for a focused input; false when the key is not for it.
    private func editInput(_ view: View, key: String, on screen: Screen) -> Bool {
        guard case .input(_, _, _, _, let onSubmit) = view.node.kind else { return false }
        let text = currentText(of: view, on: screen)
        var characters = Array(text)
        var caret = min(screen.interaction.caret[view.key] ?? characters.count, characters.count)
        switch key {
        case "left": caret = max(0, caret - 1)
        case "right": caret = min(characters.count, caret + 1)
        case "home", "ctrl+a": caret = 0
        case "end", "ctrl+e": caret = characters.count
        case "backspace":
            guard caret > 0 else { return true }
            characters.remove(at: caret - 1)
            caret -= 1
        case "delete":
            guard caret < characters.count else { return true }
            characters.remove(at: caret)
        case "enter":
            if let onSubmit { run(onSubmit, on: screen, view: view, event: event(for: view, value: .string(text))) }
            return true
        case "space":
            return insert(" ", into: view, on: screen)
        default:
            guard key.count == 1 else { return false }
            return insert(key, into: view, on: screen)
        }
        screen.interaction.caret[view.key] = caret
        if String(characters) != text { changeInput(view, to: String(characters), on: screen) }
        return true
    }

    @discardableResult
    private func insert(_ typed: String, into view: View, on screen: Screen) -> Bool {
        guard case .input = view.node.kind else { return false }
        var characters = Array(currentText(of: view, on: screen))
        let caret = min(screen.interaction.caret[view.key] ?? characters.count, characters.count)
        // Pasted line ends would end the field; they become spaces.
        let inserted = Array(typed.map { $0 == "\n" ? " " : $0 })
        characters.insert(contentsOf: inserted, at: caret)
        screen.interaction.caret[view.key] = caret + inserted.count
        changeInput(view, to: String(characters), on: screen)
        return true
    }

    /// What an input holds now: the state it is bound to (which may have changed since the
    /// last frame, while typing a run of characters), or what was typed into it.
    private func currentText(of view: View, on screen: Screen) -> String {
        guard case .input(let value, _, _, _, _) = view.node.kind else { return "" }
        if let name = value?.bindingName, let path = view.scope.statePath(of: name) {
            return screen.state.value(atPath: path).map { $0.stringValue ?? $0.jsonText } ?? ""
        }
        if let typed = screen.interaction.text[view.key] { return typed }
        if case .input(let text, _, _) = view.content { return text }
        return ""
    }

    private func changeInput(_ view: View, to text: String, on screen: Screen) {
        guard case .input(let value, _, _, let onChange, _) = view.node.kind else { return }
        if value?.bindingName == nil { screen.interaction.text[view.key] = text }
        write(.string(text), to: value, of: view, on: screen)
        if let onChange { run(onChange, on: screen, view: view, event: event(for: view, value: .string(text))) }
    }

    /// Writes a widget's new value through its two-way binding (`"@{form.email}"`).
    private func write(_ value: JSONValue, to property: PropertyValue?, of view: View, on screen: Screen) {
        guard let name = property?.bindingName, let path = view.scope.statePath(of: name) else { return }
        setState(path, to: value, on: screen)
    }

    func event(for view: View, value: JSONValue? = nil, extra: [(String, JSONValue)] = []) -> JSONValue {
        var event = JSONObject([("type", .string(view.typeName))])
        if let id = view.id { event["id"] = .string(id) }
        if let value { event["value"] = value }
        for (key, value) in extra { event[key] = value }
        return .object(event)
    }

    // MARK: Other widgets

    /// Enter, Space and arrows on the focused widget; false when the key is not for it.
    private func operate(_ view: View, key: String, on screen: Screen) -> Bool {
        let activate = key == "enter" || key == "space"
        switch (view.node.kind, view.content) {
        case (.button(_, let onPress), _) where activate:
            if let onPress { run(onPress, on: screen, view: view, event: event(for: view)) }
            return true
        case (.checkbox(_, let checked, let onChange), .checkbox(_, let shown)) where activate:
            let path = checked?.bindingName.flatMap(view.scope.statePath(of:))
            let isChecked = path.map { screen.state.value(atPath: $0) == .bool(true) } ?? shown
            if path != nil {
                write(.bool(!isChecked), to: checked, of: view, on: screen)
            } else {
                screen.interaction.checked[view.key] = !isChecked
            }
            if let onChange { run(onChange, on: screen, view: view, event: event(for: view, value: .bool(!isChecked))) }
            return true
        case (.select(let options, let selected, let onChange), .select(let labels, let current)):
            let step = key == "down" || key == "right" || activate ? 1 : key == "up" || key == "left" ? -1 : 0
            guard step != 0, !labels.isEmpty else { return false }
            let next = ((current ?? -1) + step + labels.count) % labels.count
            let items = (try? options.value(in: view.scope.with(state: screen.state)))?.arrayValue ?? []
            let chosen = items.indices.contains(next) ? (items[next]["value"] ?? items[next]) : .integer(next)
            if selected?.bindingName != nil {
                write(chosen, to: selected, of: view, on: screen)
            } else {
                screen.interaction.selection[view.key] = next
            }
            if let onChange { run(onChange, on: screen, view: view, event: event(for: view, value: chosen, extra: [("index", .integer(next))])) }
            return true
        case (.list(_, _, let onSelect), _):
            return moveSelection(view, key: key, count: view.children.count, on: screen) { index in
                guard let onSelect else { return }
                let item = (view.children[index].scope.value(of: "item")).map(\.json) ?? .null
                run(onSelect, on: screen, view: view.children[index], event: event(for: view, value: item, extra: [("index", .integer(index)), ("item", item)]))
            }
        case (.table(_, _, let onSelect), .table(_, let rows)):
            return moveSelection(view, key: key, count: rows.count, on: screen) { index in
                guard let onSelect else { return }
                let row = JSONValue.array(rows[index].map(JSONValue.string))
                // The row's action sees `index` and `row`, as a list item's sees `item`.
                let scope = view.scope.adding("index", .integer(index)).adding("row", row)
                run(onSelect, on: screen, view: view, scope: scope, event: event(for: view, value: row, extra: [("index", .integer(index)), ("row", row)]))
            }
        case (.tabs(_, let selected), .tabs(let titles, let current)):
            let step = key == "right" ? 1 : key == "left" ? -1 : 0
            guard step != 0, !titles.isEmpty else { return false }
            let next = (current + step + titles.count) % titles.count
            if selected?.bindingName != nil {
                write(.integer(next), to: selected, of: view, on: screen)
            } else {
                screen.interaction.selection[view.key] = next
            }
            return true
        case (.scroll, _):
            let page = max(1, view.frame.height - 1)
            let step = ["up": -1, "down": 1, "pageup": -page, "pagedown": page][key] ?? 0
            guard step != 0 else { return false }
            scroll(view, by: step, on: screen)
            return true
        default:
            return false
        }
    }

    /// Up/Down/Home/End move a list's or table's selection; Enter picks the selected row
    /// (Space stays free for screen keys, as SPEC §2 has only Enter select).
    private func moveSelection(_ view: View, key: String, count: Int, on screen: Screen, pick: (Int) -> Void) -> Bool {
        guard count > 0 else { return false }
        let current = min(screen.interaction.selection[view.key] ?? 0, count - 1)
        let next: Int
        switch key {
        case "up": next = max(0, current - 1)
        case "down": next = min(count - 1, current + 1)
        case "home", "pageup": next = 0
        case "end", "pagedown": next = count - 1
        case "enter":
            pick(current)
            return true
        default: return false
        }
        screen.interaction.selection[view.key] = next
        return true
    }

    private func scroll(_ view: View, by step: Int, on screen: Screen) {
        let limit = max(0, view.contentHeight - view.frame.height + view.layoutStyle.insets.vertical)
        let current = screen.interaction.scroll[view.key] ?? 0
        screen.interaction.scroll[view.key] = min(max(0, current + step), limit)
    }

    // MARK: Mouse

    private func handleMouse(_ mouse: MouseEvent, on screen: Screen) {
        switch mouse.kind {
        case .press(button: 0):
            status = nil
            needsFrame = true
            guard let view = screen.focusable(at: mouse.x, mouse.y) else { return }
            focus(view, in: screen)
            switch view.node.kind {
            case .button, .checkbox: _ = operate(view, key: "enter", on: screen)
            case .list:
                if let index = view.children.firstIndex(where: { $0.visibleFrame.contains(x: mouse.x, y: mouse.y) }) {
                    screen.interaction.selection[view.key] = index
                }
            default: break
            }
        case .scrollUp, .scrollDown:
            // The wheel scrolls the innermost scroll view under the pointer, focusable or not;
            // it never acts on widgets (a select must not change under a passing wheel).
            guard let viewport = screen.scrollView(at: mouse.x, mouse.y) else { return }
            scroll(viewport, by: mouse.kind == .scrollUp ? -3 : 3, on: screen)
            needsFrame = true
        default:
            break
        }
    }
}
