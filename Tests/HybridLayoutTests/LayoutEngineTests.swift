import HybridCells
import HybridLayout
import XCTest

/// A test item: a container, or a leaf with a fixed content size.
final class Box: LayoutItem {
    var layoutStyle: LayoutStyle
    var items: [Box]
    var content: Size
    var fixedContentHeight: Int?
    /// How many times the content was measured.
    var measurements = 0
    var frame: Rect = .zero
    var contentHeight = 0
    var scrollOffset = 0
    var layoutChildren: [any LayoutItem] { items }

    init(_ arrangement: Arrangement = .leaf, content: Size = .zero, _ items: [Box] = [], configure: (inout LayoutStyle) -> Void = { _ in }) {
        var style = LayoutStyle()
        style.arrangement = arrangement
        configure(&style)
        layoutStyle = style
        self.items = items
        self.content = content
    }

    func contentSize(maxWidth: Int) -> Size {
        measurements += 1
        return Size(width: min(content.width, maxWidth), height: content.height)
    }
}

final class LayoutEngineTests: XCTestCase {
    let screen = Rect(x: 0, y: 0, width: 40, height: 20)

    func testColumnStacksChildrenAndStretchesThem() {
        let a = Box(content: Size(width: 5, height: 2))
        let b = Box(content: Size(width: 7, height: 3))
        let root = Box(.vertical, [a, b]) { $0.gap = 1; $0.padding = Edges(top: 1, right: 2, bottom: 1, left: 2) }
        LayoutEngine.layout(root, in: screen)
        XCTAssertEqual(root.frame, screen)
        XCTAssertEqual(a.frame, Rect(x: 2, y: 1, width: 36, height: 2))
        XCTAssertEqual(b.frame, Rect(x: 2, y: 4, width: 36, height: 3))
    }

    func testLeavesOfFixedContentHeightLayOutTheSameWithoutMeasuringWidths() {
        func tree(fixedHeights: Bool) -> (root: Box, leaves: [Box]) {
            let styles: [(inout LayoutStyle) -> Void] = [
                { _ in }, { $0.height = .fill }, { $0.height = .percent(50) }, { $0.height = .cells(3) },
                { $0.minHeight = .cells(2) }, { $0.maxHeight = .cells(0) }, { $0.width = .cells(4) },
                { $0.padding = Edges(top: 1, right: 1, bottom: 2, left: 1); $0.margin = Edges(top: 1, right: 0, bottom: 1, left: 3) },
            ]
            let leaves = styles.map { style in
                let leaf = Box(content: Size(width: 30, height: 1), configure: style)
                leaf.fixedContentHeight = fixedHeights ? 1 : nil
                return leaf
            }
            let column = Box(.vertical, Array(leaves[..<4])) { $0.gap = 1 }
            let scroll = Box(.scrolling, Array(leaves[4...]))
            return (Box(.vertical, [column, scroll]), leaves)
        }
        let measured = tree(fixedHeights: false)
        let fixed = tree(fixedHeights: true)
        LayoutEngine.layout(measured.root, in: screen)
        LayoutEngine.layout(fixed.root, in: screen)
        XCTAssertEqual(fixed.leaves.map(\.frame), measured.leaves.map(\.frame))
        XCTAssertEqual(fixed.leaves[0].measurements, 0, "a stretched leaf needs only its height")
    }

    func testFlexWeightsAndFillShareTheRestOfARow() {
        let fixed = Box(content: Size(width: 10, height: 1)) { $0.width = .cells(10) }
        let one = Box { $0.flex = 1 }
        let two = Box { $0.flex = 2 }
        let fill = Box { $0.width = .fill }
        let root = Box(.horizontal, [fixed, one, two, fill])
        LayoutEngine.layout(root, in: screen)
        XCTAssertEqual([fixed, one, two, fill].map(\.frame.width), [10, 8, 15, 7])
        XCTAssertEqual([fixed, one, two, fill].map(\.frame.x), [0, 10, 18, 33])
        XCTAssertEqual(one.frame.height, 20, "row children stretch to the row's height")
    }

    func testPercentMinAndMax() {
        let half = Box { $0.width = .percent(50) }
        let capped = Box { $0.width = .percent(90); $0.maxWidth = .cells(12) }
        let floored = Box { $0.width = .cells(2); $0.minWidth = .percent(25) }
        let root = Box(.horizontal, [half, capped, floored])
        LayoutEngine.layout(root, in: screen)
        XCTAssertEqual([half, capped, floored].map(\.frame.width), [20, 12, 10])
    }

    func testJustifyAndAlign() {
        func place(_ justify: Justification, _ align: Alignment) -> [Rect] {
            let items = [Box(content: Size(width: 2, height: 1)), Box(content: Size(width: 2, height: 1))]
            let root = Box(.horizontal, items) { $0.justify = justify; $0.align = align }
            LayoutEngine.layout(root, in: Rect(x: 0, y: 0, width: 10, height: 3))
            return items.map(\.frame)
        }
        XCTAssertEqual(place(.start, .start).map(\.x), [0, 2])
        XCTAssertEqual(place(.end, .start).map(\.x), [6, 8])
        XCTAssertEqual(place(.center, .start).map(\.x), [3, 5])
        XCTAssertEqual(place(.spaceBetween, .start).map(\.x), [0, 8])
        XCTAssertEqual(place(.spaceAround, .start).map(\.x), [1, 6])
        XCTAssertEqual(place(.start, .center).map(\.y), [1, 1])
        XCTAssertEqual(place(.start, .end).map(\.y), [2, 2])
        XCTAssertEqual(place(.start, .stretch).map(\.height), [3, 3])
    }

    func testMarginsAndBorders() {
        let child = Box(content: Size(width: 3, height: 1)) { $0.margin = Edges(top: 1, right: 0, bottom: 0, left: 2) }
        let root = Box(.vertical, [child]) { $0.border = Edges(top: 1, right: 1, bottom: 1, left: 1) }
        LayoutEngine.layout(root, in: screen)
        XCTAssertEqual(child.frame, Rect(x: 3, y: 2, width: 36, height: 1))
    }

    func testAutoSizedColumnWrapsItsContent() {
        let inner = Box(.vertical, [Box(content: Size(width: 6, height: 2)), Box(content: Size(width: 9, height: 1))]) { $0.width = .auto; $0.height = .auto }
        let root = Box(.vertical, [inner]) { $0.align = .start }
        LayoutEngine.layout(root, in: screen)
        XCTAssertEqual(inner.frame, Rect(x: 0, y: 0, width: 9, height: 3))
    }

    func testScrollMeasuresAllContentAndShiftsByTheOffset() {
        let rows = (0..<10).map { _ in Box(content: Size(width: 4, height: 1)) }
        let scroll = Box(.scrolling, rows) { $0.height = .cells(3) }
        scroll.scrollOffset = 2
        let root = Box(.vertical, [scroll])
        LayoutEngine.layout(root, in: screen)
        XCTAssertEqual(scroll.frame.height, 3)
        XCTAssertEqual(scroll.contentHeight, 10)
        XCTAssertEqual(rows[2].frame.y, 0)
        XCTAssertEqual(rows[0].frame.y, -2)
    }

    func testStackOverlaysChildrenAlignedByTheStack() {
        let back = Box(content: Size(width: 1, height: 1))
        let badge = Box(content: Size(width: 3, height: 1)) { $0.width = .cells(3); $0.height = .cells(1) }
        let stack = Box(.overlay, [back, badge]) { $0.align = .end; $0.height = .cells(4) }
        let root = Box(.vertical, [stack])
        LayoutEngine.layout(root, in: screen)
        XCTAssertEqual(back.frame, Rect(x: 0, y: 0, width: 40, height: 1))
        XCTAssertEqual(badge.frame, Rect(x: 37, y: 0, width: 3, height: 1))
    }
}
