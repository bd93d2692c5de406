import Foundation
import HybridCells

/// A frame as a person sees it, written as text a test can compare whole: each row of
/// characters (`|` first), and under every row that has styled cells a row of style letters
/// (`:` first; a space is the terminal's default look), then what each letter means.
///
/// ```
/// |[ Buy ] Cancel
/// :aaaaaaa
/// a = reverse
/// ```
///
/// Focus shows as reverse video, so the focused widget is in the picture. A wide glyph takes
/// one character in its row and two letters in the style row.
public enum StyledFrame {
    /// The styled text of `buffer`.
    public static func text(of buffer: Buffer) -> String {
        var letters: [CellStyle: Character] = [:]
        var legend: [String] = []
        var lines: [String] = []
        for y in 0..<buffer.height {
            var text = ""
            var mask = ""
            var style = CellStyle.plain
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                text += cell.symbol
                // The second half of a wide glyph looks as its first half does.
                if !cell.isContinuation || x == 0 { style = cell.style }
                guard !style.isPlain else {
                    mask.append(" ")
                    continue
                }
                if letters[style] == nil {
                    let letter = Self.letters[letters.count % Self.letters.count]
                    letters[style] = letter
                    legend.append("\(letter) = \(describe(style))")
                }
                mask.append(letters[style]!)
            }
            lines.append("|" + trimmed(text))
            if mask.contains(where: { $0 != " " }) { lines.append(":" + trimmed(mask)) }
        }
        return (lines + legend).joined(separator: "\n")
    }

    /// `text`, also written to `$RECORD_STYLED/NAME.txt` when that variable is set, to review
    /// a changed look (or write a new expectation) from the files.
    public static func recorded(_ name: String, _ text: String) -> String {
        if let folder = ProcessInfo.processInfo.environment["RECORD_STYLED"] {
            try? text.write(toFile: folder + "/" + name + ".txt", atomically: true, encoding: .utf8)
        }
        return text
    }

    private static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    private static func trimmed(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }

    /// `bold dim italic underline reverse fg:red bg:#102030`, in that order.
    private static func describe(_ style: CellStyle) -> String {
        var parts: [String] = []
        let attributes: [(TextAttributes, String)] = [(.bold, "bold"), (.dim, "dim"), (.italic, "italic"), (.underline, "underline"), (.reverse, "reverse")]
        for (attribute, name) in attributes where style.attributes.contains(attribute) { parts.append(name) }
        if let foreground = style.foreground { parts.append("fg:" + describe(foreground)) }
        if let background = style.background { parts.append("bg:" + describe(background)) }
        return parts.joined(separator: " ")
    }

    private static let ansiNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
                                    "gray", "brightRed", "brightGreen", "brightYellow", "brightBlue", "brightMagenta", "brightCyan", "brightWhite"]

    private static func describe(_ color: Color) -> String {
        switch color {
        case .ansi(let index): return Int(index) < ansiNames.count ? ansiNames[Int(index)] : "ansi\(index)"
        case .indexed(let index): return "\(index)"
        case .rgb(let red, let green, let blue):
            return "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}
