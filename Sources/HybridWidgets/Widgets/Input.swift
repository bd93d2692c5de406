import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `input`: one line of text, two-way bound through `value`; typing, the editing keys of
/// `LineEditing` and pastes change it and run `onChange`, Enter runs `onSubmit`.
struct Input: Widget {
    static let typeName = "input"
    static let fields = ["value", "placeholder", "secure", "onChange", "onSubmit"]
    /// Width an input takes when nothing sizes it.
    static let defaultWidth = 20
    let value: PropertyValue?
    let placeholder: PropertyValue?
    let secure: PropertyValue?
    let onChange: Action?
    let onSubmit: Action?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Input? {
        Input(value: decoder.optional(json, "value") { $0.textProperty($1) },
              placeholder: decoder.optional(json, "placeholder") { $0.textProperty($1) },
              secure: decoder.optional(json, "secure") { $0.booleanProperty($1) },
              onChange: decoder.optional(json, "onChange") { $0.action($1) },
              onSubmit: decoder.optional(json, "onSubmit") { $0.action($1) })
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        // An input bound to nothing keeps what was typed in the interaction instead.
        let typed = value?.bindingName == nil ? place.interaction.text[place.key] : nil
        return place.view(Content(text: typed ?? resolver.string(value, in: place.scope) ?? "",
                                  placeholder: resolver.string(placeholder, in: place.scope) ?? "",
                                  isSecure: resolver.bool(secure, in: place.scope, node: place.node, field: "secure") ?? false))
    }

    func isFocusable(_ view: View) -> Bool { true }

    func keyHelp(for view: View) -> [KeyHint] {
        onSubmit.map { [KeyHint(keys: ["enter"], help: $0.help ?? "submit")] } ?? []
    }

    /// The caret starts after the text.
    func focus(_ view: View, interaction: inout Interaction) {
        guard interaction.caret[view.key] == nil, let content = view.content as? Content else { return }
        interaction.caret[view.key] = content.text.count
    }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        switch key {
        case "enter":
            host.run(onSubmit, for: view, event: view.event(value: .string(currentText(of: view, host: host))))
            return true
        case "space":
            return paste(" ", into: view, host: host)
        default:
            if let command = LineEditing.command(forKey: key) {
                edit(view, host: host) { $0.perform(command) }
                return true
            }
            guard key.count == 1 else { return false }
            return paste(key, into: view, host: host)
        }
    }

    func paste(_ typed: String, into view: View, host: any WidgetHost) -> Bool {
        // Pasted line ends would end the field; they become spaces.
        let inserted = String(typed.map { LineEditing.isLineBreak($0) ? " " : $0 })
        edit(view, host: host) { $0.insert(inserted) }
        return true
    }

    /// Applies one edit to what the input holds and its caret; a changed text is written
    /// through the binding and runs `onChange`.
    private func edit(_ view: View, host: any WidgetHost, _ change: (inout LineEditing) -> Void) {
        let text = currentText(of: view, host: host)
        var editing = LineEditing(text, caret: host.interaction.caret[view.key])
        change(&editing)
        host.interaction.caret[view.key] = editing.caret
        if editing.text != text { host.changeText(of: view, boundTo: value, to: editing.text, onChange: onChange) }
    }

    private func currentText(of view: View, host: any WidgetHost) -> String {
        host.text(of: view, boundTo: value, shown: (view.content as? Content)?.text)
    }

    struct Content: ViewContent {
        let text: String
        let placeholder: String
        let isSecure: Bool

        func size(of view: View, maxWidth: Int) -> Size {
            Size(width: max(Input.defaultWidth, max(DisplayWidth.of(text), DisplayWidth.of(placeholder)) + 3), height: 1)
        }

        /// `[text   ]`, scrolled so the caret stays inside; the caret is a reversed cell.
        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let (inner, clip, style) = (area.inner, area.clip, view.cellStyle)
            let fieldWidth = max(0, inner.width - 2)
            let characters = Array(isSecure ? String(repeating: "*", count: text.count) : text)
            let isPlaceholder = characters.isEmpty && !placeholder.isEmpty
            let edge = view.isFocused ? style.patched(with: CellStyle(attributes: .bold)) : style
            Painter.write("[", style: edge, x: inner.x, y: inner.y, into: &buffer, clip: clip)
            Painter.write("]", style: edge, x: inner.x + 1 + fieldWidth, y: inner.y, into: &buffer, clip: clip)
            var caretColumn = 0
            if isPlaceholder {
                Painter.writeAligned(placeholder, width: fieldWidth, alignment: .left, style: Painter.dimmed(style),
                                     x: inner.x + 1, y: inner.y, into: &buffer, clip: clip)
            } else {
                let caret = min(view.caret ?? characters.count, characters.count)
                // Scroll left just enough that the caret's cell is inside the field: take
                // characters back from the caret while they fit (one pass, however long the text).
                // With text after the caret, the last cell may hold the overflow marker "…":
                // the caret stays left of it.
                let room = fieldWidth - (caret < characters.count ? 1 : 0)
                var first = caret
                var shown = 0
                while first > 0 {
                    let width = DisplayWidth.of(characters[first - 1])
                    if shown + width >= room { break }
                    shown += width
                    first -= 1
                }
                caretColumn = shown
                Painter.writeAligned(String(characters[first...]), width: fieldWidth, alignment: .left, style: style,
                                     x: inner.x + 1, y: inner.y, into: &buffer, clip: clip)
            }
            if view.isFocused, view.caret != nil {
                let column = inner.x + 1 + min(caretColumn, max(0, fieldWidth - 1))
                buffer.applyStyle(CellStyle(attributes: .reverse), to: Rect(x: column, y: inner.y, width: 1, height: 1).intersection(clip))
            }
        }
    }
}
