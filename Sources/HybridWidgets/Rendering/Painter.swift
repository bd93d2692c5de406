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
        let area = PaintArea(inner: inner, clip: innerClip, visible: visible)
        view.content.paint(view, in: area, into: &buffer)
        // Children outside the clip are skipped whole, so long scenes cost only what shows.
        // Those not resolved yet were never placed in sight (`View.childrenSoFar`).
        for child in view.childrenSoFar {
            if child.frame.intersection(innerClip).isEmpty {
                child.visibleFrame = .zero
            } else {
                draw(child, into: &buffer, clip: innerClip)
            }
        }
        view.content.paintOver(view, in: area, into: &buffer)
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

    /// `glyph` (one column wide) repeated over `width` cells from (x, y), drawn only where
    /// `clip` shows it: a rule as wide as a huge frame costs what is visible.
    static func rule(_ glyph: Character, x: Int, y: Int, width: Int, style: CellStyle, into buffer: inout Buffer, clip: Rect) {
        let start = max(x, clip.x)
        let end = min(x + max(0, width), clip.maxX)
        guard end > start, y >= clip.y, y < clip.maxY else { return }
        buffer.write(repeating: glyph, count: end - start, x: start, y: y, limit: clip.maxX - start, style: style)
    }

    /// `text` cut to `width` cells and placed in them by `alignment`, the free cells blank in
    /// `style`; only the visible cells are touched, however wide the column.
    static func writeAligned(_ text: String, width: Int, alignment: TextAlignment, style: CellStyle,
                             x: Int, y: Int, into buffer: inout Buffer, clip: Rect) {
        guard y >= clip.y, y < clip.maxY, width > 0 else { return }
        let cut = truncate(text, to: width)
        let free = max(0, width - DisplayWidth.of(cut))
        rule(" ", x: x, y: y, width: width, style: style, into: &buffer, clip: clip)
        let offset = switch alignment {
        case .left: 0
        case .right: free
        case .center: free / 2
        }
        write(cut, style: style, x: x + offset, y: y, into: &buffer, clip: clip)
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
        // Only the rows and columns inside the clip are drawn: a frame may be far larger.
        for (y, left, right) in [(frame.y, glyphs.topLeft, glyphs.topRight), (frame.maxY - 1, glyphs.bottomLeft, glyphs.bottomRight)] {
            corner(left, x: frame.x, y: y, style: style, into: &buffer, clip: clip)
            rule(glyphs.horizontal, x: frame.x + 1, y: y, width: frame.width - 2, style: style, into: &buffer, clip: clip)
            corner(right, x: frame.maxX - 1, y: y, style: style, into: &buffer, clip: clip)
        }
        for y in max(frame.y + 1, clip.y)..<max(max(frame.y + 1, clip.y), min(frame.maxY - 1, clip.maxY)) {
            corner(glyphs.vertical, x: frame.x, y: y, style: style, into: &buffer, clip: clip)
            corner(glyphs.vertical, x: frame.maxX - 1, y: y, style: style, into: &buffer, clip: clip)
        }
    }

    /// One border glyph, when its cell is inside the clip.
    private static func corner(_ glyph: Character, x: Int, y: Int, style: CellStyle, into buffer: inout Buffer, clip: Rect) {
        guard clip.contains(x: x, y: y) else { return }
        buffer.write(repeating: glyph, count: 1, x: x, y: y, limit: clip.maxX - x, style: style)
    }

    private static func drawScrollMarks(_ view: View, inner: Rect, into buffer: inout Buffer, clip: Rect) {
        guard view.contentHeight > inner.height, inner.width > 0 else { return }
        let style = view.cellStyle.patched(with: CellStyle(attributes: .dim))
        if view.scrollOffset > 0 { write("▲", style: style, x: inner.maxX - 1, y: inner.y, into: &buffer, clip: clip) }
        if view.scrollOffset + inner.height < view.contentHeight {
            write("▼", style: style, x: inner.maxX - 1, y: inner.maxY - 1, into: &buffer, clip: clip)
        }
    }

    /// The focus look: reversed, so it shows without colours too.
    static func focusable(_ style: CellStyle, _ view: View) -> CellStyle {
        view.isFocused ? style.patched(with: CellStyle(attributes: .reverse)) : style
    }

    /// `style` dimmed (rules, placeholders, empty parts of bars).
    static func dimmed(_ style: CellStyle) -> CellStyle {
        style.patched(with: CellStyle(attributes: .dim))
    }
}

/// The line glyphs of one border kind.
struct BorderGlyphs {
    let horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight: Character

    init(_ kind: BorderKind) {
        switch kind {
        case .none, .single: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("─", "│", "┌", "┐", "└", "┘")
        case .rounded: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("─", "│", "╭", "╮", "╰", "╯")
        case .double: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("═", "║", "╔", "╗", "╚", "╝")
        case .heavy: (horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight) = ("━", "┃", "┏", "┓", "┗", "┛")
        }
    }
}
