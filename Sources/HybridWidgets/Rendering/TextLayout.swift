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

    /// - Parameter hasLineBreak: Whether a run holds a newline, when the caller knows already.
    static func lines(_ runs: [TextRun], width: Int, wrap: WrapMode, hasLineBreak: Bool? = nil) -> [TextLine] {
        // Common case (every line of the benchmark scene): one line that needs no breaking.
        if !(hasLineBreak ?? Self.hasLineBreak(runs)) {
            let natural = naturalWidth(runs)
            if wrap == .none || natural <= width { return [TextLine(runs: runs, width: natural)] }
        }
        var builder = LineBuilder(width: max(width, 1), wrap: wrap)
        for run in runs {
            builder.add(run)
        }
        return builder.finish()
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

/// Accumulates glyphs into lines, remembering the last place a line may break (after a space).
private struct LineBuilder {
    struct Glyph {
        var character: Character
        var width: Int
        var style: CellStyle
        var isSpace: Bool { character == " " }
    }

    let width: Int
    let wrap: WrapMode
    var lines: [[Glyph]] = []
    var current: [Glyph] = []
    var currentWidth = 0

    init(width: Int, wrap: WrapMode) {
        self.width = width
        self.wrap = wrap
    }

    mutating func add(_ run: TextRun) {
        for character in run.text {
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
        lines.append(current)
        current = []
        currentWidth = 0
    }

    mutating func finish() -> [TextLine] {
        lines.append(current)
        return lines.map { glyphs in
            var runs: [TextRun] = []
            var lineWidth = 0
            for glyph in glyphs {
                lineWidth += glyph.width
                if let last = runs.indices.last, runs[last].style == glyph.style {
                    runs[last].text.append(glyph.character)
                } else {
                    runs.append(TextRun(text: String(glyph.character), style: glyph.style))
                }
            }
            return TextLine(runs: runs, width: lineWidth)
        }
    }
}
