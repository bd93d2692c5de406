import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `input`: one line of text, two-way bound through `value`; typing, editing keys and pastes
/// change it and run `onChange`, Enter runs `onSubmit`.
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
        let text = currentText(of: view, host: host)
        var characters = Array(text)
        var caret = min(host.interaction.caret[view.key] ?? characters.count, characters.count)
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
            host.run(onSubmit, for: view, event: view.event(value: .string(text)))
            return true
        case "space":
            return paste(" ", into: view, host: host)
        default:
            guard key.count == 1 else { return false }
            return paste(key, into: view, host: host)
        }
        host.interaction.caret[view.key] = caret
        if String(characters) != text { change(view, to: String(characters), host: host) }
        return true
    }

    func paste(_ typed: String, into view: View, host: any WidgetHost) -> Bool {
        var characters = Array(currentText(of: view, host: host))
        let caret = min(host.interaction.caret[view.key] ?? characters.count, characters.count)
        // Pasted line ends would end the field; they become spaces.
        let inserted = Array(typed.map { $0 == "\n" ? " " : $0 })
        characters.insert(contentsOf: inserted, at: caret)
        host.interaction.caret[view.key] = caret + inserted.count
        change(view, to: String(characters), host: host)
        return true
    }

    /// What the input holds now: the state it is bound to (which may have changed since the
    /// last frame, while typing a run of characters), or what was typed into it.
    private func currentText(of view: View, host: any WidgetHost) -> String {
        if let bound = host.boundValue(value, of: view) { return bound.map { $0.stringValue ?? $0.jsonText } ?? "" }
        if let typed = host.interaction.text[view.key] { return typed }
        return (view.content as? Content)?.text ?? ""
    }

    private func change(_ view: View, to text: String, host: any WidgetHost) {
        if value?.bindingName == nil { host.interaction.text[view.key] = text }
        host.write(.string(text), to: value, of: view)
        host.run(onChange, for: view, event: view.event(value: .string(text)))
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
