import HybridCells
import HybridJavaScript
@testable import HybridRuntime
import TestSupport
import XCTest

/// The parts the app coordinates, each alone.
final class AppPartsTests: XCTestCase {
    func testAFrameRequestTellsOnceAndNeverWhileDrawing() {
        let request = FrameRequest()
        var told = 0
        request.onNeeded = { told += 1 }
        request.drawing { request.isNeeded = true }
        XCTAssertFalse(request.isNeeded, "a problem found while drawing lands in that frame")
        XCTAssertEqual(told, 0)
        request.isNeeded = true
        request.isNeeded = true
        XCTAssertEqual(told, 1, "told when it becomes due, not again while it is")
    }

    func testTheStatusLineShowsTheLastProblemOverTheBottomRow() {
        var reported: [String] = []
        var line = StatusLine()
        line.onProblem = { reported.append($0) }
        line.report("first")
        line.report("E_DENIED: cart.add needs the permission cart")
        var buffer = Buffer(width: 24, height: 2)
        buffer.write("body", x: 0, y: 0, limit: 24, style: .plain)
        buffer.write("covered", x: 0, y: 1, limit: 24, style: .plain)
        line.draw(into: &buffer)
        XCTAssertEqual(reported, ["first", "E_DENIED: cart.add needs the permission cart"])
        XCTAssertEqual(StyledFrame.text(of: buffer), """
        |body
        |E_DENIED: cart.add needs
        :aaaaaaaaaaaaaaaaaaaaaaaa
        a = reverse fg:red
        """)
    }

    func testNavigationGoesBackToTheHostsRoutes() {
        var navigation = Navigation()
        navigation.router.native["about"] = { _ in .null }
        navigation.rememberHostRouter()
        navigation.router.files["home"] = "bundle/home.json"
        navigation.reset()
        XCTAssertNil(navigation.router.files["home"], "the bundle's routes go")
        XCTAssertNotNil(navigation.router.native["about"], "the host's stay")
        XCTAssertTrue(navigation.screens.isEmpty)
    }

    func testAWatcherSeesChangesAtInsideAndAroundItsPath() throws {
        let context = JavaScriptContext()
        let watcher = Watcher(path: "cart.items", callback: try context.evaluate("(() => {})").protect(), screen: nil)
        XCTAssertTrue(watcher.overlaps("cart.items"))
        XCTAssertTrue(watcher.overlaps("cart.items.0.price"), "inside")
        XCTAssertTrue(watcher.overlaps("cart"), "around")
        XCTAssertFalse(watcher.overlaps("cart.itemsCount"), "a longer name is another path")
        XCTAssertFalse(watcher.overlaps("user"))
    }
}
