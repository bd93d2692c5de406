import XCTest
import HybridCells
@testable import HybridTerminal
import TestSupport

/// Random edits with wide, narrow and combining glyphs in several styles: replaying each
/// encoded diff on a terminal model must always reproduce the frame, characters and styles
/// (colours as the terminal's colour support shows them), whatever overlapped what.
final class FrameEncoderFuzzTests: XCTestCase {
    func testRandomEditsReplayExactly() {
        let pieces = ["a", "bc", "中", "文字", "😀", "🇫🇷", "e\u{301}", " ", "xyz", "한", "👨‍👩‍👧"]
        let styles = [CellStyle.plain, CellStyle(attributes: .bold), CellStyle(foreground: .ansi(1)),
                      CellStyle(background: .rgb(1, 2, 3), attributes: [.italic, .reverse])]
        var random = SeededRandom(seed: 42)
        for colors in [ColorSupport.trueColor, .ansi16] {
            let encoder = FrameEncoder(colors: colors)
            for _ in 0..<40 {
                let width = 3 + random.next(10)
                let height = 1 + random.next(3)
                var screen = TerminalModel(width: width, height: height)
                var previous: Buffer?
                var frame = Buffer(width: width, height: height)
                for step in 0..<25 {
                    for _ in 0..<(1 + random.next(4)) {
                        let x = random.next(width + 2) - 1
                        let y = random.next(height)
                        let style = styles[random.next(styles.count)]
                        if random.next(6) == 0 {
                            frame.fill(Rect(x: x, y: y, width: random.next(4), height: 1), symbol: random.next(2) == 0 ? " " : "口", style: style)
                        } else {
                            frame.write(pieces[random.next(pieces.count)], x: x, y: y, limit: random.next(6), style: style)
                        }
                    }
                    screen.feed(encoder.encode(from: previous, to: frame))
                    let expected = StyledFrame.text(of: Self.shown(frame, colors: colors))
                    XCTAssertEqual(StyledFrame.text(of: screen.screen), expected, "size \(width)x\(height) step \(step)")
                    if StyledFrame.text(of: screen.screen) != expected { return }
                    previous = frame
                }
            }
        }
    }

    /// `frame` with its colours as a terminal of `colors` shows them.
    static func shown(_ frame: Buffer, colors: ColorSupport) -> Buffer {
        var shown = frame
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                var cell = frame[x, y]
                cell.style.foreground = cell.style.foreground?.degraded(to: colors)
                cell.style.background = cell.style.background?.degraded(to: colors)
                shown[x, y] = cell
            }
        }
        return shown
    }
}
