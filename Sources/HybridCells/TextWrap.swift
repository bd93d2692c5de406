/// How text longer than its box is broken into lines.
public enum TextWrap: String, Hashable, Sendable, CaseIterable {
    /// Break at spaces; a word longer than the line is broken by character.
    case word
    /// Break anywhere between grapheme clusters (never inside one, never inside a wide glyph).
    case char
    /// Do not wrap: one line per explicit line break, not truncated (the caller clips).
    case none
}

/// Splits `text` into lines of at most `width` terminal columns.
///
/// - Explicit line breaks (`\n`, `\r\n`, `\r`, U+2028…) always break, in every mode; an empty
///   text or an empty source line yields an empty line.
/// - `.word`: greedy; words are separated by spaces (tabs count as spaces). Spaces at a break
///   are dropped, spaces between words on a line are kept as written, leading spaces of a
///   source line (indentation) are kept when they fit, trailing spaces are dropped.
/// - `.char`: greedy by grapheme cluster.
/// - `.none`: the source lines as they are.
/// - A glyph wider than `width` (a wide glyph when `width` is 1) gets a line of its own rather
///   than being lost. A `width` below 1 yields no lines for `.word` and `.char` (nothing fits).
public func wrapLines(_ text: String, width: Int, mode: TextWrap) -> [String] {
    let paragraphs = text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline })
    if mode == .none { return paragraphs.map(String.init) }
    guard width >= 1 else { return [] }
    var lines: [String] = []
    for paragraph in paragraphs {
        if DisplayWidth.of(paragraph) <= width && (mode == .char || paragraph.last != " ") {
            // Common case: the line already fits.
            lines.append(String(paragraph))
            continue
        }
        switch mode {
        case .char: wrapByCharacter(paragraph, width: width, into: &lines)
        default: wrapByWord(paragraph, width: width, into: &lines)
        }
    }
    return lines
}

/// Greedy grapheme-cluster wrapping of one source line.
private func wrapByCharacter(_ line: Substring, width: Int, into lines: inout [String]) {
    var current = ""
    var used = 0
    for character in line {
        let w = DisplayWidth.of(character)
        if used + w > width && used > 0 {
            lines.append(current)
            current = ""
            used = 0
        }
        current.append(character)
        used += w
    }
    lines.append(current)
}

/// Greedy word wrapping of one source line.
private func wrapByWord(_ line: Substring, width: Int, into lines: inout [String]) {
    var current = ""
    var used = 0
    var emitted = false      // whether this source line already produced a line
    var gap = ""             // the spaces seen since the last word
    var gapWidth = 0
    var index = line.startIndex

    func flush() {
        lines.append(current)
        current = ""
        used = 0
        emitted = true
    }

    while index < line.endIndex {
        let character = line[index]
        if character == " " || character == "\t" {
            gap.append(" ")
            gapWidth += 1
            index = line.index(after: index)
            continue
        }
        // Take the next word.
        var end = index
        while end < line.endIndex && line[end] != " " && line[end] != "\t" { end = line.index(after: end) }
        let word = line[index..<end]
        let wordWidth = DisplayWidth.of(word)
        index = end

        // Leading spaces only survive at the start of the first line (indentation).
        let keepGap = used > 0 || !emitted
        let separator = keepGap ? gapWidth : 0
        if used + separator + wordWidth <= width {
            if keepGap { current += gap }
            current += word
            used += separator + wordWidth
        } else {
            if used > 0 { flush() }
            if wordWidth <= width {
                current = String(word)
                used = wordWidth
            } else {
                // Over-long word: break it by character, the tail stays open for more words.
                for character in word {
                    let w = DisplayWidth.of(character)
                    if used + w > width && used > 0 { flush() }
                    current.append(character)
                    used += w
                }
            }
        }
        gap = ""
        gapWidth = 0
    }
    if used > 0 || !emitted { lines.append(current) }
}
