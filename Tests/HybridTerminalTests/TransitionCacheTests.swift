import HybridCells
@testable import HybridTerminal
import XCTest

/// `TransitionCache`: what it appends between two styles is what `StyleTransition` works out,
/// whether the pair is new, seen before, or collided with another in its slot.
final class TransitionCacheTests: XCTestCase {
    private func direct(_ from: CellStyle, _ to: CellStyle) -> [UInt8] {
        var out: [UInt8] = []
        StyleTransition.append(from: from, to: to, into: &out)
        return out
    }

    func testEveryPairAppendsWhatStyleTransitionWorksOut() {
        var generator = SystemRandomNumberGenerator()
        let colors: [Color?] = [nil, .ansi(1), .ansi(9), .indexed(200), .rgb(255, 136, 0), .rgb(32, 32, 64)]
        let attributes: [TextAttributes] = [[], .bold, [.bold, .dim], .italic, [.underline, .reverse]]
        // Few enough styles that pairs repeat, many enough that some share a slot.
        let styles = (0..<40).map { _ in
            CellStyle(foreground: colors.randomElement(using: &generator)!, background: colors.randomElement(using: &generator)!,
                      attributes: attributes.randomElement(using: &generator)!)
        }
        var cache = TransitionCache()
        var cached: [UInt8] = [], expected: [UInt8] = []
        for _ in 0..<5_000 {
            let (from, to) = (styles.randomElement(using: &generator)!, styles.randomElement(using: &generator)!)
            cache.append(from: from, to: to, into: &cached)
            expected += direct(from, to)
        }
        XCTAssertEqual(cached, expected)
    }

    func testEqualStylesAppendNothing() {
        var cache = TransitionCache()
        var out: [UInt8] = []
        cache.append(from: .plain, to: .plain, into: &out)
        cache.append(from: CellStyle(attributes: .bold), to: CellStyle(attributes: .bold), into: &out)
        XCTAssertEqual(out, [])
    }
}
