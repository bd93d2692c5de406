import HybridCells
import HybridWidgets

/// `ui.dialog({title, text, buttons})` (SPEC §3): a box over the middle of the screen with its
/// title, text and a row of buttons. The focus stays in it: Tab, Shift+Tab, Left and Right move
/// between its buttons, Enter or Space chooses one, Esc cancels; no other key reaches the screen.
struct DialogBox {
    struct Button: Equatable {
        var id: String
        var label: String
    }

    let title: String
    let text: String
    let buttons: [Button]
    /// The button the focus is on.
    private(set) var focused = 0

    /// A dialog; without buttons it gets one, `OK` (id `ok`).
    init(title: String, text: String, buttons: [Button]) {
        self.title = title
        self.text = text
        self.buttons = buttons.isEmpty ? [Button(id: "ok", label: "OK")] : buttons
    }

    /// What a key did.
    enum Outcome: Equatable {
        /// The dialog stays (the key moved the focus, or was not the dialog's).
        case stays
        /// A button was chosen: its id; `nil` when cancelled with Esc.
        case closed(String?)
    }

    mutating func handleKey(_ key: String) -> Outcome {
        switch key {
        case "tab", "right": focused = (focused + 1) % buttons.count
        case "shift+tab", "left": focused = (focused + buttons.count - 1) % buttons.count
        case "enter", "space": return .closed(buttons[focused].id)
        case "esc": return .closed(nil)
        default: break
        }
        return .stays
    }

    private static let frameStyle = CellStyle(foreground: .ansi(15), background: .ansi(4))
    private static let titleStyle = CellStyle(foreground: .ansi(15), background: .ansi(4), attributes: .bold)
    private static let focusStyle = CellStyle(foreground: .ansi(4), background: .ansi(15), attributes: .bold)

    /// Draws the box centred over `buffer`: a border, the title on it, the text wrapped, the buttons.
    func draw(into buffer: inout Buffer) {
        guard buffer.width >= 12, buffer.height >= 5 else { return }
        let labels = buttons.map { "[ \($0.label) ]" }
        let buttonsWidth = labels.reduce(0) { $0 + DisplayWidth.of($1) } + 2 * (labels.count - 1)
        let textWidth = text.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayWidth.of($0) }.max() ?? 0
        let inner = min(buffer.width - 4, max(buttonsWidth, DisplayWidth.of(title) + 2, textWidth, 20))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { TextLayout.lines(of: String($0), width: inner, wrap: .word) }
        let shown = Array(lines.prefix(max(1, buffer.height - 6)))
        let width = inner + 4
        let height = shown.count + 4
        let x = (buffer.width - width) / 2
        let y = max(0, (buffer.height - height) / 2)
        buffer.fill(Rect(x: x, y: y, width: width, height: height), style: Self.frameStyle)
        buffer.write("┌" + String(repeating: "─", count: width - 2) + "┐", x: x, y: y, limit: width, style: Self.frameStyle)
        for row in 1..<(height - 1) {
            buffer.write("│", x: x, y: y + row, limit: 1, style: Self.frameStyle)
            buffer.write("│", x: x + width - 1, y: y + row, limit: 1, style: Self.frameStyle)
        }
        buffer.write("└" + String(repeating: "─", count: width - 2) + "┘", x: x, y: y + height - 1, limit: width, style: Self.frameStyle)
        if !title.isEmpty { buffer.write(" \(title) ", x: x + 2, y: y, limit: width - 4, style: Self.titleStyle) }
        for (row, line) in shown.enumerated() {
            buffer.write(line, x: x + 2, y: y + 1 + row, limit: inner, style: Self.frameStyle)
        }
        var column = x + width - 2 - min(buttonsWidth, inner)
        for (index, label) in labels.enumerated() {
            let style = index == focused ? Self.focusStyle : Self.frameStyle
            column += buffer.write(label, x: column, y: y + height - 2, limit: x + width - 2 - column, style: style) + 2
        }
    }
}
