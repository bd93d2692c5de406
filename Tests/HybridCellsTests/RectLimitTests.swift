import HybridCells
import Testing

/// Rectangles built from sizes a document controls saturate at the ends of `Int` instead of
/// trapping (`"padding": 9223372036854775807` used to overflow here).
@Suite struct RectLimitTests {
    @Test func edgesAndAreasSaturate() {
        let huge = Rect(x: Int.max - 1, y: Int.min + 1, width: Int.max, height: Int.max)
        #expect(huge.maxX == Int.max)
        #expect(huge.maxY == Int.min + 1 + Int.max)
        #expect(huge.area == Int.max)
        #expect(huge.contains(x: Int.max - 1, y: -1))
    }

    @Test func insetsAndIntersectionsSaturate() {
        let screen = Rect(x: 0, y: 0, width: 80, height: 24)
        #expect(screen.inset(by: Int.max) == Rect(x: Int.max, y: Int.max, width: 0, height: 0))
        #expect(screen.inset(by: Int.min).width == Int.max)
        #expect(Rect(x: Int.min, y: Int.min, width: Int.max, height: Int.max).intersection(screen).isEmpty)
        #expect(Rect(x: -10, y: -10, width: Int.max, height: Int.max).intersection(screen) == screen)
    }
}
