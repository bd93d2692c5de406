import XCTest
@testable import HybridCells

final class CellStyleTests: XCTestCase {
    /// Styles are equal exactly when their colours (kind and values) and attributes are, and
    /// equal styles hash alike.
    func testEqualityTellsEveryColourKindAndValueApart() {
        let colors: [Color?] = [nil, .ansi(0), .ansi(1), .indexed(0), .indexed(1), .rgb(0, 0, 0), .rgb(0, 0, 1), .rgb(1, 0, 0), .rgb(0, 1, 0)]
        for a in colors {
            for b in colors {
                for attributes in [TextAttributes(), .bold] {
                    let left = CellStyle(foreground: a, background: b, attributes: attributes)
                    for (c, d, other) in [(a, b, attributes), (b, a, attributes), (a, b, TextAttributes.italic)] {
                        let right = CellStyle(foreground: c, background: d, attributes: other)
                        let same = a == c && b == d && attributes == other
                        XCTAssertEqual(left == right, same, "\(left) against \(right)")
                        if same { XCTAssertEqual(left.hashValue, right.hashValue) }
                    }
                }
            }
        }
    }

    /// Colours are stored packed: every kind and value comes back as it was set, and patching
    /// keeps a colour the patch does not set.
    func testColoursComeBackAsSetAndPatchesKeepWhatTheyDoNotSet() {
        let colors: [Color?] = [nil, .ansi(0), .ansi(15), .ansi(255), .indexed(0), .indexed(255), .rgb(0, 0, 0), .rgb(255, 255, 255), .rgb(1, 2, 3)]
        for color in colors {
            var style = CellStyle(foreground: color, background: color)
            XCTAssertEqual(style.foreground, color)
            XCTAssertEqual(style.background, color)
            style.foreground = .rgb(9, 8, 7)
            XCTAssertEqual(style.foreground, .rgb(9, 8, 7))
            XCTAssertEqual(style.background, color, "setting one colour leaves the other")
            let patched = style.patched(with: CellStyle(background: color, attributes: .bold))
            XCTAssertEqual(patched, CellStyle(foreground: .rgb(9, 8, 7), background: color, attributes: .bold))
        }
        let under = CellStyle(foreground: .ansi(1), background: .indexed(4), attributes: .italic)
        XCTAssertEqual(under.patched(with: CellStyle(foreground: .rgb(1, 1, 1), attributes: .reverse)),
                       CellStyle(foreground: .rgb(1, 1, 1), background: .indexed(4), attributes: [.italic, .reverse]))
        XCTAssertEqual(under.patched(with: .plain), under)
    }
}
