import HybridCells

/// The lines a `textarea` shows: its text broken at its line breaks and wherever a line is
/// wider than the field (after the last space that fits, else between characters; wide
/// characters are never split). Wrapping is for display only: the text keeps its own line
/// breaks. Positions are caret positions in `Character`s, as in `LineEditing`.
struct SoftWrap: Equatable {
    /// One line on screen.
    struct Line: Equatable {
        /// The characters shown, without the line break that ends a line of the text.
        var range: Range<Int>
        /// Whether the text goes on in the next line on screen (broken by wrapping, not by a
        /// line break): a caret at its end shows at the start of the next line.
        var continues: Bool
    }

    /// The lines on screen, at least one.
    private(set) var lines: [Line] = []
    /// The cells each character takes.
    private let widths: [Int]

    /// `characters` broken into lines at most `width` cells wide (spaces may hang past it).
    init(_ characters: [Character], width: Int) {
        let width = max(1, width)
        widths = characters.map { LineEditing.isLineBreak($0) ? 0 : DisplayWidth.of($0) }
        var start = 0
        var used = 0
        // Where the line may break: after its last space.
        var breakAfterSpace: Int?
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if LineEditing.isLineBreak(character) {
                lines.append(Line(range: start..<index, continues: false))
                (start, used, breakAfterSpace) = (index + 1, 0, nil)
            } else if character == " " {
                // A space at the edge hangs past it rather than starting the next line.
                used += widths[index]
                breakAfterSpace = index + 1
            } else if used + widths[index] > width, index > start {
                let end = breakAfterSpace ?? index
                lines.append(Line(range: start..<end, continues: true))
                start = end
                used = widths[end..<index].reduce(0, +)
                breakAfterSpace = nil
                // The character is placed again on the new line (a long word may break again).
                continue
            } else {
                used += widths[index]
            }
            index += 1
        }
        lines.append(Line(range: start..<characters.count, continues: false))
        // A caret after a last line that fills the field shows on a line of its own.
        if used >= width, !characters.isEmpty, !LineEditing.isLineBreak(characters[characters.count - 1]) {
            lines[lines.count - 1].continues = true
            lines.append(Line(range: characters.count..<characters.count, continues: false))
        }
    }

    /// The line on screen that shows `caret`.
    func line(of caret: Int) -> Int {
        lines.firstIndex { caret < $0.range.upperBound || (caret == $0.range.upperBound && !$0.continues) } ?? lines.count - 1
    }

    /// The cell column of `caret` within its line.
    func column(of caret: Int) -> Int {
        let start = lines[line(of: caret)].range.lowerBound
        return widths[start..<max(start, caret)].reduce(0, +)
    }

    /// The caret position on line `index` nearest to `column` without passing it (up and down
    /// keep the column where the line is long enough).
    func caret(onLine index: Int, column: Int) -> Int {
        let line = lines[min(max(0, index), lines.count - 1)]
        // A caret at the end of a wrapped line would show on the next one.
        let last = line.continues ? max(line.range.lowerBound, line.range.upperBound - 1) : line.range.upperBound
        var position = line.range.lowerBound
        var used = 0
        while position < last, used + widths[position] <= column {
            used += widths[position]
            position += 1
        }
        return position
    }

    /// The first line to show in `height` rows so that `caret`'s line shows, moving as little
    /// as it can from `top` (the first line shown before).
    func firstShownLine(from top: Int, showing caret: Int, height: Int) -> Int {
        let height = max(1, height)
        let caretLine = line(of: caret)
        var first = min(max(0, top), max(0, lines.count - height))
        if caretLine < first { first = caretLine }
        if caretLine >= first + height { first = caretLine - height + 1 }
        return first
    }
}
