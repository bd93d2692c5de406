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
}
