import HybridCells
import HybridDocument
import HybridLayout

/// Draws a laid-out view tree into a buffer, each view clipped to its parent's inside.
enum Painter {
    static func draw(_ view: View, into buffer: inout Buffer, clip: Rect) {
        let frame = view.frame
        let visible = frame.intersection(clip)
        view.visibleFrame = visible
        guard !visible.isEmpty else { return }
        if view.paintsBackground {
            buffer.fill(visible, style: CellStyle(background: view.cellStyle.background))
        }
        if view.border != .none {
            drawBorder(view, into: &buffer, clip: visible)
        }
        let insets = view.layoutStyle.insets
        let inner = frame.inset(top: insets.top, right: insets.right, bottom: insets.bottom, left: insets.left)
        let innerClip = inner.intersection(visible)
        drawContent(view, inner: inner, into: &buffer, clip: innerClip, visible: visible)
        // Children outside the clip are skipped whole, so long scenes cost only what shows.
        for child in view.children {
            if child.frame.intersection(innerClip).isEmpty {
                child.visibleFrame = .zero
            } else {
                draw(child, into: &buffer, clip: innerClip)
            }
        }
        // A focused list shows its selected item reversed.
        if view.isFocused, case .list = view.node.kind, let selected = view.selected, view.children.indices.contains(selected) {
            buffer.applyStyle(CellStyle(attributes: .reverse), to: view.children[selected].frame.intersection(innerClip))
        }
        if view.layoutStyle.arrangement == .scrolling {
            drawScrollMarks(view, inner: inner, into: &buffer, clip: innerClip)
        }
    }

    /// Writes one line of runs at (x, y), clipped to `clip`.
    static func write(_ runs: [TextRun], x: Int, y: Int, into buffer: inout Buffer, clip: Rect) {
        guard y >= clip.y, y < clip.maxY else { return }
        var column = x
        for run in runs {
            guard column < clip.maxX else { return }
            column += buffer.write(run.text, x: column, y: y, limit: clip.maxX - column, style: run.style)
        }
    }

    static func write(_ text: String, style: CellStyle, x: Int, y: Int, into buffer: inout Buffer, clip: Rect) {
        guard y >= clip.y, y < clip.maxY, x < clip.maxX else { return }
        buffer.write(text, x: x, y: y, limit: clip.maxX - x, style: style)
    }

    /// `text` cut to `width` cells, ending in "…" when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if used + characterWidth > width - 1 { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    /// `text` padded to `width` cells on the side given by `alignment`.
    static func aligned(_ text: String, width: Int, alignment: TextAlignment) -> String {
        let cut = truncate(text, to: width)
        let free = max(0, width - DisplayWidth.of(cut))
        switch alignment {
        case .left: return cut + String(repeating: " ", count: free)
        case .right: return String(repeating: " ", count: free) + cut
        case .center: return String(repeating: " ", count: free / 2) + cut + String(repeating: " ", count: free - free / 2)
        }
    }

    private static func drawBorder(_ view: View, into buffer: inout Buffer, clip: Rect) {
        let frame = view.frame
        guard frame.width >= 2, frame.height >= 2 else { return }
        let glyphs = BorderGlyphs(view.border)
        let style = view.borderStyle
        let horizontal = String(repeating: glyphs.horizontal, count: frame.width - 2)
        write(glyphs.topLeft + horizontal + glyphs.topRight, style: style, x: frame.x, y: frame.y, into: &buffer, clip: clip)
        write(glyphs.bottomLeft + horizontal + glyphs.bottomRight, style: style, x: frame.x, y: frame.maxY - 1, into: &buffer, clip: clip)
        for y in (frame.y + 1)..<(frame.maxY - 1) where y >= clip.y && y < clip.maxY {
            write(glyphs.vertical, style: style, x: frame.x, y: y, into: &buffer, clip: clip)
            write(glyphs.vertical, style: style, x: frame.maxX - 1, y: y, into: &buffer, clip: clip)
        }
        if case .container(let title?) = view.content, !title.isEmpty, frame.width > 4 {
            let shown = truncate(title, to: frame.width - 4)
            write(" " + shown + " ", style: style.patched(with: CellStyle(attributes: .bold)),
                  x: frame.x + 1, y: frame.y, into: &buffer, clip: clip)
        }
    }

    private static func drawScrollMarks(_ view: View, inner: Rect, into buffer: inout Buffer, clip: Rect) {
        guard view.contentHeight > inner.height, inner.width > 0 else { return }
        let style = view.cellStyle.patched(with: CellStyle(attributes: .dim))
        if view.scrollOffset > 0 { write("▲", style: style, x: inner.maxX - 1, y: inner.y, into: &buffer, clip: clip) }
        if view.scrollOffset + inner.height < view.contentHeight {
            write("▼", style: style, x: inner.maxX - 1, y: inner.maxY - 1, into: &buffer, clip: clip)
        }
    }

    private static func drawContent(_ view: View, inner: Rect, into buffer: inout Buffer, clip: Rect, visible: Rect) {
        let style = view.cellStyle
        switch view.content {
        case .container, .spacer:
            return
        case .text:
            let lines = view.lines(width: inner.width)
            for (row, line) in lines.enumerated() {
                let y = inner.y + row
                if y >= clip.maxY { break }
                let free = inner.width - line.width
                let x: Int
                switch view.textAlign {
                case .left: x = inner.x
                case .center: x = inner.x + max(0, free / 2)
                case .right: x = inner.x + max(0, free)
                }
                write(line.runs, x: x, y: y, into: &buffer, clip: clip)
            }
        case .button(let label):
            write("[ " + label + " ]", style: focusable(style, view), x: inner.x, y: inner.y, into: &buffer, clip: clip)
        case .input(let text, let placeholder, let secure):
            drawInput(view, text: text, placeholder: placeholder, secure: secure, style: style, inner: inner, into: &buffer, clip: clip)
        case .checkbox(let label, let checked):
            write((checked ? "[x] " : "[ ] ") + label, style: focusable(style, view), x: inner.x, y: inner.y, into: &buffer, clip: clip)
        case .select(let options, let selected):
            let width = max(0, inner.width - 4)
            let current = selected.map { options[$0] } ?? ""
            write("[" + aligned(current, width: width, alignment: .left) + " ▾]", style: focusable(style, view),
                  x: inner.x, y: inner.y, into: &buffer, clip: clip)
        case .table(let columns, let rows):
            drawTable(columns: columns, rows: rows, selected: view.isFocused ? view.selected : nil, style: style, inner: inner, into: &buffer, clip: clip)
        case .tabs(let titles, let selected):
            var x = inner.x
            let bar = inner.y - 2
            for (index, title) in titles.enumerated() {
                let label = index == selected ? "[" + title + "]" : " " + title + " "
                let tabStyle = index == selected ? focusable(style.patched(with: CellStyle(attributes: .bold)), view) : style
                write(label, style: tabStyle, x: x, y: bar, into: &buffer, clip: visible)
                x += DisplayWidth.of(label) + 1
            }
            write(String(repeating: "─", count: max(0, inner.width)), style: style.patched(with: CellStyle(attributes: .dim)),
                  x: inner.x, y: bar + 1, into: &buffer, clip: visible)
        case .progress(let value, let label):
            var x = inner.x
            if let label, !label.isEmpty {
                write(label, style: style, x: x, y: inner.y, into: &buffer, clip: clip)
                x += DisplayWidth.of(label) + 1
            }
            let percent = " " + aligned("\(Int((value * 100).rounded()))%", width: 4, alignment: .right)
            let barWidth = max(0, inner.maxX - x - 5)
            let filled = Int((Double(barWidth) * value).rounded())
            write(String(repeating: "█", count: filled), style: style, x: x, y: inner.y, into: &buffer, clip: clip)
            write(String(repeating: "░", count: barWidth - filled), style: style.patched(with: CellStyle(attributes: .dim)),
                  x: x + filled, y: inner.y, into: &buffer, clip: clip)
            write(percent, style: style, x: x + barWidth, y: inner.y, into: &buffer, clip: clip)
        case .spinner(let label):
            let frame = SpinnerFrames.frames[view.tick % SpinnerFrames.frames.count]
            write(frame + (label.map { " " + $0 } ?? ""), style: style, x: inner.x, y: inner.y, into: &buffer, clip: clip)
        case .divider(let vertical):
            let dividerStyle = style.patched(with: CellStyle(attributes: .dim))
            if vertical {
                for y in inner.y..<inner.maxY {
                    write("│", style: dividerStyle, x: inner.x, y: y, into: &buffer, clip: clip)
                }
            } else {
                write(String(repeating: "─", count: max(0, inner.width)), style: dividerStyle, x: inner.x, y: inner.y, into: &buffer, clip: clip)
            }
        case .error(let message):
            let marker = CellStyle(foreground: .ansi(1), attributes: .bold)
            write(truncate("[!] " + message, to: max(0, inner.width)), style: marker, x: inner.x, y: inner.y, into: &buffer, clip: clip)
        }
    }

    /// The focus look: reversed, so it shows without colours too.
    static func focusable(_ style: CellStyle, _ view: View) -> CellStyle {
        view.isFocused ? style.patched(with: CellStyle(attributes: .reverse)) : style
    }

    /// `[text   ]`, scrolled so the caret stays inside; the caret is a reversed cell.
    private static func drawInput(_ view: View, text: String, placeholder: String, secure: Bool, style: CellStyle,
                                  inner: Rect, into buffer: inout Buffer, clip: Rect) {
        let fieldWidth = max(0, inner.width - 2)
        let characters = Array(secure ? String(repeating: "*", count: text.count) : text)
        let isPlaceholder = characters.isEmpty && !placeholder.isEmpty
        let edge = view.isFocused ? style.patched(with: CellStyle(attributes: .bold)) : style
        write("[", style: edge, x: inner.x, y: inner.y, into: &buffer, clip: clip)
        write("]", style: edge, x: inner.x + 1 + fieldWidth, y: inner.y, into: &buffer, clip: clip)
        if isPlaceholder {
            write(aligned(placeholder, width: fieldWidth, alignment: .left), style: style.patched(with: CellStyle(attributes: .dim)),
                  x: inner.x + 1, y: inner.y, into: &buffer, clip: clip)
        } else {
            let caret = min(view.caret ?? characters.count, characters.count)
            // Scroll left just enough that the caret's cell is inside the field.
            var first = 0
            while first < caret, DisplayWidth.of(String(characters[first..<caret])) >= fieldWidth { first += 1 }
            write(aligned(String(characters[first...]), width: fieldWidth, alignment: .left), style: style,
                  x: inner.x + 1, y: inner.y, into: &buffer, clip: clip)
        }
        if view.isFocused, let caret = view.caret {
            let shownBefore = isPlaceholder ? 0 : DisplayWidth.of(String(characters[..<min(caret, characters.count)]))
            let column = inner.x + 1 + min(shownBefore, max(0, fieldWidth - 1))
            buffer.applyStyle(CellStyle(attributes: .reverse), to: Rect(x: column, y: inner.y, width: 1, height: 1).intersection(clip))
        }
    }

    private static func drawTable(columns: [TableColumn], rows: [[String]], selected: Int?, style: CellStyle, inner: Rect,
                                  into buffer: inout Buffer, clip: Rect) {
        let widths = TableGeometry.columnWidths(columns: columns, rows: rows, available: inner.width)
        func drawRow(_ cells: [String], y: Int, style: CellStyle) {
            var x = inner.x
            for (index, column) in columns.enumerated() {
                let text = index < cells.count ? cells[index] : ""
                write(aligned(text, width: widths[index], alignment: column.align), style: style, x: x, y: y, into: &buffer, clip: clip)
                x += widths[index] + WidgetMetrics.tableGap
            }
        }
        drawRow(columns.map(\.title), y: inner.y, style: style.patched(with: CellStyle(attributes: .bold)))
        let ruleWidth = min(inner.width, widths.reduce(0, +) + WidgetMetrics.tableGap * max(0, widths.count - 1))
        write(String(repeating: "─", count: max(0, ruleWidth)), style: style.patched(with: CellStyle(attributes: .dim)),
              x: inner.x, y: inner.y + 1, into: &buffer, clip: clip)
        // Rows scroll so the selected one is visible.
        let visibleRows = max(1, inner.height - 2)
        let first = selected.map { max(0, $0 - visibleRows + 1) } ?? 0
        for (index, row) in rows.enumerated().dropFirst(first) {
            let y = inner.y + 2 + index - first
            if y >= clip.maxY { break }
            drawRow(row, y: y, style: index == selected ? style.patched(with: CellStyle(attributes: .reverse)) : style)
        }
    }
}

/// The animation frames of a spinner (braille dots, as most terminal spinners use).
public enum SpinnerFrames {
    /// Frames in order; frame 0 is the resting look.
    public static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
}

/// The line glyphs of one border kind.
struct BorderGlyphs {
    let horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight: String

    init(_ kind: BorderKind) {
        switch kind {
        case .none, .single: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("─", "│", "┌", "┐", "└", "┘")
        case .rounded: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("─", "│", "╭", "╮", "╰", "╯")
        case .double: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("═", "║", "╔", "╗", "╚", "╝")
        case .heavy: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("━", "┃", "┏", "┓", "┗", "┛")
        }
    }
}
