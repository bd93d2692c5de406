import HybridCells
import HybridDocument

/// A line of styled text ready to draw: runs in order and their total width in cells.
struct TextLine {
    var runs: [TextRun]
    var width: Int
}

/// Breaks styled runs into lines (word, char or no wrapping), measuring in terminal cells.
/// Grapheme clusters are never split, and a wide glyph moves whole to the next line.
public enum TextLayout {
    /// `text` in lines of at most `width` cells, broken as a text node's `wrap` says: what the
    /// app's own overlays (the developer console, dialogs) draw their text with.
    public static func lines(of text: String, width: Int, wrap: WrapMode) -> [String] {
        lines([TextRun(text: text, style: CellStyle())], width: width, wrap: wrap).map { $0.runs.map(\.text).joined() }
    }

    /// The lines `runs` break into at `width`: the first `keep`, made whole, and how many there
    /// are and the widest one's width, counted without keeping the others (a 4 MB text kept
    /// 200 MB of glyphs). Unless `countingAll`, the breaking stops once `keep` lines are made,
    /// and the count and width are of those: what painting the rows on screen needs.
    ///
    /// - Parameter hasLineBreak: Whether a run holds a newline, when the caller knows already.
    static func layout(_ runs: [TextRun], width: Int, wrap: WrapMode, hasLineBreak: Bool? = nil,
                       keep: Int = .max, countingAll: Bool = true) -> WrappedText {
        // Common case (every line of the benchmark scene): one line that needs no breaking.
        if !(hasLineBreak ?? Self.hasLineBreak(runs)) {
            let natural = naturalWidth(runs)
            if wrap == .none || natural <= width {
                return WrappedText(lines: keep > 0 ? [TextLine(runs: runs, width: natural)] : [], count: 1, widest: natural)
            }
        }
        var builder = LineBuilder(width: max(width, 1), wrap: wrap, keep: keep, stopsWhenFull: !countingAll)
        for run in runs where !builder.isDone {
            builder.add(run)
        }
        return builder.finish()
    }

    /// All the lines `runs` break into at `width`.
    static func lines(_ runs: [TextRun], width: Int, wrap: WrapMode) -> [TextLine] {
        layout(runs, width: width, wrap: wrap).lines
    }

    /// Whether any run holds a newline (which always starts a new line).
    static func hasLineBreak(_ runs: [TextRun]) -> Bool {
        runs.contains { run in
            // Scanning the bytes in place is much faster than iterating a `UTF8View`.
            run.text.utf8.withContiguousStorageIfAvailable { $0.contains(0x0A) } ?? run.text.utf8.contains(0x0A)
        }
    }

    static func naturalWidth(_ runs: [TextRun]) -> Int {
        runs.reduce(0) { $0 + DisplayWidth.of($1.text) }
    }
}

/// Lines of text as `TextLayout.layout` makes them: the first ones whole, and the count and
/// widest width of all it broke.
struct WrappedText {
    var lines: [TextLine]
    var count: Int
    var widest: Int

    /// Whether `lines` holds every line.
    var isWhole: Bool { lines.count == count }
}

/// Accumulates the glyphs of one line at a time, remembering the last place it may break (after
/// a space); the first `keep` lines are made into runs as they end, the rest only counted.
private struct LineBuilder {
    struct Glyph {
        var character: Character
        var width: Int
        var style: CellStyle
        var isSpace: Bool { character == " " }
    }

    let width: Int
    let wrap: WrapMode
    let keep: Int
    /// Whether breaking ends once `keep` lines are made.
    let stopsWhenFull: Bool
    var lines: [TextLine] = []
    var count = 0
    var widest = 0
    var current: [Glyph] = []
    var currentWidth = 0

    /// Whether breaking has ended: `keep` lines are made, and no more are wanted.
    var isDone: Bool { stopsWhenFull && count >= keep }

    mutating func add(_ run: TextRun) {
        for character in run.text {
            if isDone { return }
            if character == "\n" || character == "\r\n" {
                breakLine()
                continue
            }
            let glyphWidth = DisplayWidth.of(character)
            append(Glyph(character: character, width: glyphWidth, style: run.style))
        }
    }

    mutating func append(_ glyph: Glyph) {
        guard wrap != .none, currentWidth + glyph.width > width else {
            current.append(glyph)
            currentWidth += glyph.width
            return
        }
        if glyph.isSpace && wrap == .word {
            // A space at the break point is swallowed by the break.
            breakLine()
            return
        }
        if wrap == .word, let lastSpace = current.lastIndex(where: \.isSpace) {
            let carried = Array(current[(lastSpace + 1)...])
            current.removeSubrange(lastSpace...)
            breakLine()
            current = carried
            currentWidth = carried.reduce(0) { $0 + $1.width }
            append(glyph)
            return
        }
        // A line never starts with closing punctuation ("，" after a break looks like a stray
        // mark): the glyph before it comes down too, as CJK typesetting (kinsoku) does.
        if Self.closingPunctuation.contains(glyph.character), current.count > 1, current.last?.isSpace == false {
            let carried = current.removeLast()
            breakLine()
            current = [carried, glyph]
            currentWidth = carried.width + glyph.width
            return
        }
        breakLine()
        current.append(glyph)
        currentWidth = glyph.width
    }

    /// What may not start a line: closing brackets and quotes, commas, stops and the like.
    static let closingPunctuation = Set("，。、．：；！？）」』】〉》〕］｝’”…‥々ゝゞ,.;:!?)]}")

    mutating func breakLine() {
        while wrap == .word, current.last?.isSpace == true {
            current.removeLast()
        }
        endLine()
    }

    /// Ends the last line (its trailing spaces kept), unless breaking ended before it.
    mutating func finish() -> WrappedText {
        if !isDone { endLine() }
        return WrappedText(lines: lines, count: count, widest: widest)
    }

    private mutating func endLine() {
        var lineWidth = 0
        if count < keep {
            var runs: [TextRun] = []
            for glyph in current {
                lineWidth += glyph.width
                if let last = runs.indices.last, runs[last].style == glyph.style {
                    runs[last].text.append(glyph.character)
                } else {
                    runs.append(TextRun(text: String(glyph.character), style: glyph.style))
                }
            }
            lines.append(TextLine(runs: runs, width: lineWidth))
        } else {
            lineWidth = current.reduce(0) { $0 + $1.width }
        }
        count += 1
        widest = max(widest, lineWidth)
        current = []
        currentWidth = 0
    }
}
