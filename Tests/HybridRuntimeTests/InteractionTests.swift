import HybridJSON
import HybridRuntime
import XCTest

/// Focus, typing, widgets and actions on JSON screens, driven headless.
final class InteractionTests: XCTestCase {
    func testTypingGoesIntoTheFocusedInputAndItsBinding() throws {
        let harness = try AppHarness()
        let rows = try harness.run(screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "input", "value": "@{name}", "style": {"width": 20}},
          {"type": "text", "text": "Hello, @{name}!"}]}
        """#, state: #"{"name": "Ad"}"#), keys: #""a Lovelace" home "Ms " end backspace backspace"#)
        XCTAssertEqual(rows[1], "Hello, Ms Ada Lovela!")
        XCTAssertEqual(harness.app.currentScreen?.state["name"], .string("Ms Ada Lovela"))
    }

    func testTabMovesFocusAndEnterAndSpaceOperateWidgets() throws {
        let harness = try AppHarness()
        let rows = try harness.run(screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "button", "label": "Add", "onPress": {"action": "set", "path": "count", "value": "@{count + 1}"}},
          {"type": "checkbox", "label": "Gift", "checked": "@{gift}"},
          {"type": "select", "options": ["S", "M", "L"], "selected": "@{size}"},
          {"type": "text", "text": "@{count} @{gift} @{size}"}]}
        """#, state: #"{"count": 0, "gift": false, "size": "S"}"#), keys: "enter space tab space tab down down shift+tab shift+tab enter")
        XCTAssertEqual(rows[3], "3 true L", "enter and space both press the button")
    }

    func testScreenKeysAndSequencesAndQuit() throws {
        let harness = try AppHarness()
        let rows = try harness.run(screen: AppHarness.screen(#"{"type": "text", "text": "n=@{n}"}"#, state: #"{"n": 1}"#,
            extra: #""keys": {"+": [{"action": "set", "path": "n", "value": "@{n * 10}"}, {"action": "set", "path": "n", "value": "@{n + 1}"}], "q": {"action": "quit"}}"#),
            keys: "+ + q +")
        XCTAssertEqual(rows[0], "n=111")
        XCTAssertTrue(harness.app.isFinished)
    }

    func testNavigateOpensAScreenWithParamsAndBackReturns() throws {
        let harness = try AppHarness()
        let detail = AppHarness.screen(#"{"type": "text", "text": "Item @{params.id} of @{params.kind}"}"#, extra: #""keys": {"esc": {"action": "back"}}"#)
        let rows = try harness.run(screen: AppHarness.screen(#"{"type": "button", "label": "Open", "onPress": {"action": "navigate", "url": "app://detail?id=@{id}&kind=tea%20pot"}}"#, state: #"{"id": 7}"#),
                                   files: ["detail.json": detail], keys: "enter")
        XCTAssertEqual(rows[0], "Item 7 of tea pot")
        harness.app.handle(.key("esc"))
        XCTAssertEqual(harness.app.render().plainLines()[0], "[ Open ]")
    }

    func testListsSelectWithArrowsAndEnterAndItemsWriteBack() throws {
        let harness = try AppHarness()
        let rows = try harness.run(screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "list", "items": "@{todos}", "onSelect": {"action": "set", "path": "picked", "value": "@{item.title}"},
           "template": {"type": "checkbox", "label": "@{item.title}", "checked": "@{item.done}"}},
          {"type": "text", "text": "picked @{picked}"}]}
        """#, state: #"{"todos": [{"title": "tea", "done": false}, {"title": "cake", "done": false}], "picked": "-"}"#),
            keys: "down enter")
        XCTAssertEqual(rows.last { $0.hasPrefix("picked") }, "picked cake")
    }

    func testAFailingBindingIsReportedOnTheStatusLineAndTheAppGoesOn() throws {
        let harness = try AppHarness(size: (50, 3))
        let rows = try harness.run(screen: AppHarness.screen(#"{"type": "button", "label": "Go", "onPress": {"action": "set", "path": "x", "value": "@{1 / zero}"}}"#, state: #"{"zero": 0}"#),
                                   keys: "enter")
        XCTAssertEqual(harness.problems.count, 1)
        XCTAssertTrue(rows[2].count > 10 && harness.problems[0].hasPrefix(rows[2]), "the status line shows it: \(rows)")
        XCTAssertTrue(harness.problems[0].hasSuffix("Failed to evaluate [1 / 0]. Division by zero is not supported."), harness.problems[0])
    }
}

extension InteractionTests {
    func testScrollViewsFollowTheFocus() throws {
        let harness = try AppHarness(size: (30, 4))
        let buttons = (1...8).map { #"{"type": "button", "label": "B\#($0)"}"# }.joined(separator: ",")
        let rows = try harness.run(screen: AppHarness.screen(#"{"type": "scroll", "style": {"height": 4}, "children": [\#(buttons)]}"#),
                                   keys: "tab tab tab tab tab")
        XCTAssertEqual(rows.map { $0.replacingOccurrences(of: " ", with: "") }, ["[B3]▲", "[B4]", "[B5]", "[B6]▼"], "B6 focused and in view")
    }

    func testNativeScreensOpenThroughTheRouter() throws {
        let harness = try AppHarness()
        harness.app.registerScreen("about") { params in
            try! JSONParser.parse(#"{"format": 1, "id": "about", "body": {"type": "text", "text": "About @{params.who}"}}"#).plain
        }
        let rows = try harness.run(screen: AppHarness.screen(#"{"type": "button", "label": "Go", "onPress": {"action": "navigate", "url": "app://about?who=Swift"}}"#),
                                   keys: "enter")
        XCTAssertEqual(rows[0], "About Swift")
    }
}
