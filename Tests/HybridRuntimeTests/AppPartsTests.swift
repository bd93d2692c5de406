import Foundation
import HybridCells
import HybridDocument
import HybridJSON
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
        |E_DENIED: cart.add need…
        :aaaaaaaaaaaaaaaaaaaaaaaa
        a = reverse fg:red
        """, "too narrow to say where the rest is: only the … of a cut")
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

    /// A start screen loaded while the engine makes its context is used only if nothing it was
    /// loaded from changed by the time the screen opens: the file's text, or the theme.
    func testAPreparedScreenIsNeverStale() throws {
        let folder = try makeTemporaryDirectory("router")
        let file = folder.appendingPathComponent("home.json")
        let titled = #"{"format": 1, "id": "home", "body": {"type": "text", "text": "hi", "class": "title"}}"#
        try Data(titled.utf8).write(to: file)
        var router = Router()
        router.files["home"] = file.path
        router.prepare("home")
        router.theme = NamedStyles(["title": NodeStyle()])
        let source = try XCTUnwrap(router.source(of: "home", params: JSONObject()))
        XCTAssertEqual(router.document(of: source).diagnostics, [], "loaded again with the theme that has title")

        router.prepare("home")
        try Data(#"{"format": 1, "id": "home", "body": {"type": "text", "text": "hi", "colour": "red"}}"#.utf8).write(to: file)
        let edited = try XCTUnwrap(router.source(of: "home", params: JSONObject()))
        XCTAssertEqual(router.document(of: edited).diagnostics.map(\.message), [#"unknown field "colour" in a "text" node"#], "the edited text")

        router.prepare("home")
        let same = try XCTUnwrap(router.source(of: "home", params: JSONObject()))
        XCTAssertEqual(router.document(of: same).diagnostics.count, 1, "prepared from the same text and theme")
    }

    func testAWatcherSeesChangesAtInsideAndAroundItsPath() throws {
        let context = JavaScriptContext()
        let watcher = Watcher(id: 1, path: "cart.items", callback: try context.evaluate("(() => {})").protect(), screen: nil)
        XCTAssertTrue(watcher.overlaps("cart.items"))
        XCTAssertTrue(watcher.overlaps("cart.items.0.price"), "inside")
        XCTAssertTrue(watcher.overlaps("cart"), "around")
        XCTAssertFalse(watcher.overlaps("cart.itemsCount"), "a longer name is another path")
        XCTAssertFalse(watcher.overlaps("user"))
        XCTAssertTrue(watcher.overlaps(""), "the whole tree holds every path")
    }
}

/// Problems the app reports echo what documents and scripts wrote: nothing in them may drive
/// the developer's terminal or forge a line of its own.
final class ProblemTextTests: XCTestCase {
    func testProblemsEscapeControlCharactersAndCutWhatTheyEcho() throws {
        let harness = try AppHarness(size: (60, 3))
        let path = "a\u{1B}]0;pwned\u{07}" + String(repeating: "x", count: 200)
        _ = try harness.run(screen: AppHarness.screen(#"""
        {"type": "list", "items": [1], "onSelect": {"action": "set", "path": "item.\#(path.replacingOccurrences(of: "\u{1B}", with: "\\u001b").replacingOccurrences(of: "\u{07}", with: "\\u0007"))", "value": 1},
         "template": {"type": "text", "text": "x"}}
        """#), keys: "enter")
        let problem = try XCTUnwrap(harness.problems.first)
        XCTAssertFalse(problem.unicodeScalars.contains { $0.value < 0x20 }, problem)
        XCTAssertTrue(problem.contains(#"cannot set "item.a\u{1B}]0;pwned\u{7}xxx"#), problem)
        XCTAssertTrue(problem.contains("xxx…\": it names a value"), "the echoed path is cut: \(problem)")
    }
}
