import HybridCells
import HybridDocument
import HybridJSON
import HybridLayout

/// `textarea`: several lines of text, two-way bound through `value`. Typing, pastes (line
/// breaks kept) and the editing keys of `LineEditing` change it and run `onChange`; Enter
/// starts a new line, Up and Down move between the lines on screen keeping the column, and
/// `ctrl+enter` runs `onSubmit`. Long lines wrap to the field's width for display only; the
/// field scrolls to keep the caret in sight.
///
/// A terminal sends ctrl+enter apart from Enter only through a keyboard protocol that tells
/// them apart (the kitty protocol, xterm's modifyOtherKeys); elsewhere it arrives as Enter.
/// Keys the textarea does not take (Tab, Esc, `ctrl+s`…) go on to the screen's `keys`.
struct Textarea: Widget {
    static let typeName = "textarea"
    static let fields = ["value", "placeholder", "onChange", "onSubmit"]
    /// Width a textarea takes when nothing sizes it.
    static let defaultWidth = 30
    /// Lines a textarea shows when its style sets no height and its text is shorter.
    static let minimumLines = 3
    /// The bar left of the text on a textarea without a border (the field's edge, as an
    /// input's brackets are), and the space after it.
    static let gutter = "│ "
    let value: PropertyValue?
    let placeholder: PropertyValue?
    let onChange: Action?
    let onSubmit: Action?

    static func decode(_ json: SourceJSON, with decoder: inout DocumentDecoder) -> Textarea? {
        Textarea(value: decoder.optional(json, "value") { $0.textProperty($1) },
                 placeholder: decoder.optional(json, "placeholder") { $0.textProperty($1) },
                 onChange: decoder.optional(json, "onChange") { $0.action($1) },
                 onSubmit: decoder.optional(json, "onSubmit") { $0.action($1) })
    }

    func resolve(_ place: Place, with resolver: inout Resolver) -> View? {
        // A textarea bound to nothing keeps what was typed in the interaction instead.
        let typed = value?.bindingName == nil ? place.interaction.text[place.key] : nil
        let view = place.view(Content(text: typed ?? resolver.string(value, in: place.scope) ?? "",
                                      placeholder: resolver.string(placeholder, in: place.scope) ?? ""),
                              border: place.style.border ?? .none)
        // As tall as its text, but never past its parent (it scrolls instead).
        if view.layoutStyle.maxHeight == nil { view.layoutStyle.maxHeight = .percent(100) }
        if view.isFocused { view.borderStyle = view.borderStyle.patched(with: CellStyle(attributes: .bold)) }
        return view
    }

    func isFocusable(_ view: View) -> Bool { true }

    /// Enter makes a line here; what submits is ctrl+enter, where the terminal tells it apart.
    func keyHelp(for view: View) -> [KeyHint] {
        [KeyHint(keys: ["enter"], help: "new line")] + (onSubmit.map { [KeyHint(keys: ["ctrl+enter"], help: $0.help ?? "submit")] } ?? [])
    }

    /// The caret starts after the text.
    func focus(_ view: View, interaction: inout Interaction) {
        guard interaction.caret[view.key] == nil, let content = view.content as? Content else { return }
        interaction.caret[view.key] = content.text.count
    }

    func handleKey(_ key: String, on view: View, host: any WidgetHost) -> Bool {
        switch key {
        case "ctrl+enter":
            host.run(onSubmit, for: view, event: view.event(value: .string(currentText(of: view, host: host))))
        case "enter":
            edit(view, host: host) { editing, _ in editing.insert("\n") }
        case "space":
            edit(view, host: host) { editing, _ in editing.insert(" ") }
        case "up", "down", "pageup", "pagedown":
            let rows = max(1, Content.field(of: view).height - 1)
            let step = ["up": -1, "down": 1, "pageup": -rows, "pagedown": rows][key]!
            edit(view, host: host) { editing, lines in
                let line = lines.line(of: editing.caret)
                // Up on the first line goes to its start, Down on the last to its end.
                let target = line + step
                if target < 0 { editing.moveCaret(to: 0) }
                else if target >= lines.lines.count { editing.moveCaret(to: editing.characters.count) }
                else { editing.moveCaret(to: lines.caret(onLine: target, column: lines.column(of: editing.caret))) }
            }
        default:
            if let command = LineEditing.command(forKey: key) {
                edit(view, host: host) { editing, _ in editing.perform(command) }
            } else if key.count == 1 {
                edit(view, host: host) { editing, _ in editing.insert(key) }
            } else {
                return false
            }
        }
        return true
    }

    func paste(_ text: String, into view: View, host: any WidgetHost) -> Bool {
        edit(view, host: host) { editing, _ in editing.insert(text) }
        return true
    }

    /// Applies one edit to what the textarea holds, its caret and the line shown first (so the
    /// caret stays in sight); a changed text is written through the binding and runs `onChange`.
    /// The edit sees the lines on screen before it.
    private func edit(_ view: View, host: any WidgetHost, _ change: (inout LineEditing, SoftWrap) -> Void) {
        let text = currentText(of: view, host: host)
        let field = Content.field(of: view)
        var editing = LineEditing(text, caret: host.interaction.caret[view.key])
        change(&editing, SoftWrap(editing.characters, width: field.width))
        host.interaction.caret[view.key] = editing.caret
        let lines = SoftWrap(editing.characters, width: field.width)
        host.interaction.scroll[view.key] = lines.firstShownLine(from: host.interaction.scroll[view.key] ?? 0,
                                                                 showing: editing.caret, height: field.height)
        if editing.text != text { host.changeText(of: view, boundTo: value, to: editing.text, onChange: onChange) }
    }

    private func currentText(of view: View, host: any WidgetHost) -> String {
        host.text(of: view, boundTo: value, shown: (view.content as? Content)?.text)
    }

    struct Content: ViewContent {
        let text: String
        let placeholder: String

        /// Cells the gutter takes left of the text: none when a border marks the field.
        static func gutterWidth(of view: View) -> Int {
            view.border == .none ? DisplayWidth.of(Textarea.gutter) : 0
        }

        /// The cells the text has in `view` as laid out: columns, and the rows that show (a
        /// textarea taller than the room left below it scrolls within what shows).
        static func field(of view: View) -> Size {
            let insets = view.layoutStyle.insets
            var height = view.frame.height - insets.vertical
            if !view.visibleFrame.isEmpty { height = min(height, view.visibleFrame.maxY - view.frame.y - insets.top) }
            return Size(width: max(1, view.frame.width - insets.horizontal - gutterWidth(of: view)), height: max(1, height))
        }

        func size(of view: View, maxWidth: Int) -> Size {
            let gutter = Self.gutterWidth(of: view)
            let widest = text.split(whereSeparator: LineEditing.isLineBreak).map(DisplayWidth.of).max() ?? 0
            let natural = max(Textarea.defaultWidth, max(widest, DisplayWidth.of(placeholder)) + gutter + 1)
            let width = min(natural, max(1, maxWidth))
            let lines = SoftWrap(Array(text), width: width - gutter).lines.count
            return Size(width: width, height: max(Textarea.minimumLines, lines))
        }

        /// The lines from the first shown, a gutter bar (bold when focused, as an input's
        /// brackets), the placeholder dimmed when empty, and the caret as a reversed cell.
        func paint(_ view: View, in area: PaintArea, into buffer: inout Buffer) {
            let (inner, clip, style) = (area.inner, area.clip, view.cellStyle)
            let gutter = Self.gutterWidth(of: view)
            let field = Self.field(of: view)
            if gutter > 0 {
                let edge = view.isFocused ? style.patched(with: CellStyle(attributes: .bold)) : style
                for row in 0..<inner.height {
                    Painter.write(Textarea.gutter, style: edge, x: inner.x, y: inner.y + row, into: &buffer, clip: clip)
                }
            }
            let x = inner.x + gutter
            let characters = Array(text)
            let caret = min(view.caret ?? characters.count, characters.count)
            let lines = SoftWrap(characters, width: field.width)
            let first = view.isFocused ? lines.firstShownLine(from: view.scrollOffset, showing: caret, height: field.height) : 0
            if characters.isEmpty {
                Painter.write(Painter.truncate(placeholder, to: field.width), style: Painter.dimmed(style),
                              x: x, y: inner.y, into: &buffer, clip: clip)
            } else {
                for (row, line) in lines.lines.dropFirst(first).prefix(field.height).enumerated() {
                    Painter.write(String(characters[line.range]), style: style, x: x, y: inner.y + row, into: &buffer,
                                  clip: Rect(x: x, y: clip.y, width: field.width, height: clip.height).intersection(clip))
                }
            }
            if view.isFocused, view.caret != nil {
                let column = x + min(lines.column(of: caret), field.width - 1)
                let row = inner.y + lines.line(of: caret) - first
                buffer.applyStyle(CellStyle(attributes: .reverse), to: Rect(x: column, y: row, width: 1, height: 1).intersection(clip))
            }
        }
    }
}
