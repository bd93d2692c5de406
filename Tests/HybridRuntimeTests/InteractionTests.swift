import HybridTerminal
import HybridJSON
import HybridRuntime
import XCTest

/// Focus, typing, widgets and actions on JSON screens, driven headless.
final class InteractionTests: XCTestCase {
    func testTypingGoesIntoTheFocusedInputAndItsBinding() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("typing", screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "input", "value": "@{name}", "style": {"width": 20}},
          {"type": "text", "text": "Hello, @{name}!"}]}
        """#, state: #"{"name": "Ad"}"#), keys: #""a Lovelace" home "Ms " end backspace backspace"#)
        XCTAssertEqual(frame, """
        |[Ms Ada Lovela     ]
        :a             b    a
        |Hello, Ms Ada Lovela!
        |
        |
        |
        |
        |
        |
        a = bold
        b = reverse
        """)
        XCTAssertEqual(harness.app.currentScreen?.state["name"], .string("Ms Ada Lovela"))
    }

    func testTabMovesFocusAndEnterAndSpaceOperateWidgets() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("tab-enter-space", screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "button", "label": "Add", "onPress": {"action": "set", "path": "count", "value": "@{count + 1}"}},
          {"type": "checkbox", "label": "Gift", "checked": "@{gift}"},
          {"type": "select", "options": ["S", "M", "L"], "selected": "@{size}"},
          {"type": "text", "text": "@{count} @{gift} @{size}"}]}
        """#, state: #"{"count": 0, "gift": false, "size": "S"}"#), keys: "enter space tab space tab down down shift+tab shift+tab enter")
        // Enter and space both press the button; focus ends on it.
        XCTAssertEqual(frame, """
        |[ Add ]
        :aaaaaaa
        |[x] Gift
        |[L ▾]
        |3 true L
        |
        |
        |
        |
        a = reverse
        """)
    }

    func testScreenKeysAndSequencesAndQuit() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("screen-keys", screen: AppHarness.screen(#"{"type": "text", "text": "n=@{n}"}"#, state: #"{"n": 1}"#,
            extra: #""keys": {"+": [{"action": "set", "path": "n", "value": "@{n * 10}"}, {"action": "set", "path": "n", "value": "@{n + 1}"}], "q": {"action": "quit"}}"#),
            keys: "+ + q +")
        XCTAssertEqual(frame, """
        |n=111
        |
        |
        |
        |
        |
        |
        |
        """)
        XCTAssertTrue(harness.app.isFinished)
    }

    func testASequenceStopsAtItsFirstFailedStep() throws {
        let harness = try AppHarness()
        let rows = try harness.run(screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "input", "value": "@{draft}", "onSubmit": [{"action": "script", "handler": "addTodo"}, {"action": "set", "path": "draft", "value": ""}]},
          {"type": "text", "text": "draft=@{draft}"}]}
        """#, state: #"{"draft": ""}"#), keys: #""milk" enter"#)
        XCTAssertEqual(rows[1], "draft=milk", "the text a missing handler never saved is not cleared")
        XCTAssertEqual(harness.problems.count, 1, "\(harness.problems)")
        XCTAssertTrue(harness.problems[0].hasPrefix(#"no script handler named "addTodo""#), harness.problems[0])
    }

    func testUpAndDownMoveBetweenTheWidgetsOfAListsItems() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("list-of-checkboxes", screen: AppHarness.screen(#"""
        {"type": "list", "items": "@{todos}", "template": {"type": "checkbox", "label": "@{item.title}", "checked": "@{item.done}"}}
        """#, state: #"{"todos": [{"title": "a", "done": false}, {"title": "b", "done": false}, {"title": "c", "done": false}]}"#),
                                      keys: "down space down down space up")
        XCTAssertEqual(frame, """
        |[ ] a
        |[x] b
        :aaaaa
        |[x] c
        |
        |
        |
        |
        |
        a = reverse
        """, "Down from a to b ticks b, Down twice stops at c and ticks it, Up goes back to b (focused)")
    }

    func testNavigateOpensAScreenWithParamsAndBackReturns() throws {
        let harness = try AppHarness()
        let detail = AppHarness.screen(#"{"type": "text", "text": "Item @{params.id} of @{params.kind}"}"#, extra: #""keys": {"esc": {"action": "back"}}"#)
        let frame = try harness.frame("navigate", screen: AppHarness.screen(#"{"type": "button", "label": "Open", "onPress": {"action": "navigate", "url": "app://detail?id=@{id}&kind=tea%20pot"}}"#, state: #"{"id": 7}"#),
                                   files: ["detail.json": detail], keys: "enter")
        XCTAssertEqual(frame, """
        |Item 7 of tea pot
        |
        |
        |
        |
        |
        |
        |
        """)
        harness.app.handle(.key("esc"))
        XCTAssertEqual(harness.frameNow("navigate-back"), """
        |[ Open ]
        :aaaaaaaa
        |
        |
        |
        |
        |
        |
        |
        a = reverse
        """)
    }

    func testListsSelectWithArrowsAndEnterAndItemsWriteBack() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("list-select", screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "list", "items": "@{todos}", "onSelect": {"action": "set", "path": "picked", "value": "@{item.title}"},
           "template": {"type": "checkbox", "label": "@{item.title}", "checked": "@{item.done}"}},
          {"type": "text", "text": "picked @{picked}"}]}
        """#, state: #"{"todos": [{"title": "tea", "done": false}, {"title": "cake", "done": false}], "picked": "-"}"#),
            keys: "down enter")
        XCTAssertEqual(frame, """
        |[ ] tea
        |[ ] cake
        :aaaaaaaa
        |picked cake
        |
        |
        |
        |
        |
        a = reverse
        """)
    }

    func testOnlyTheFailingPartOfATextRendersEmpty() throws {
        let harness = try AppHarness(size: (30, 2))
        let rows = try harness.run(screen: AppHarness.screen(#"{"type": "text", "text": "Hello @{user.name}, welcome!"}"#))
        XCTAssertEqual(rows[0], "Hello , welcome!", "the literal text around the failing @{…} stays")
        XCTAssertEqual(harness.problems.count, 1, "\(harness.problems)")
        XCTAssertTrue(harness.problems[0].hasSuffix("Variable 'user.name' is missing."), harness.problems[0])
    }

    func testAFailingBindingIsReportedOnTheStatusLineAndTheAppGoesOn() throws {
        let harness = try AppHarness(size: (50, 3))
        let frame = try harness.frame("failing-binding", nativeScreen: AppHarness.screen(#"{"type": "button", "label": "Go", "onPress": {"action": "set", "path": "x", "value": "@{1 / zero}"}}"#, state: #"{"zero": 0}"#),
                                   keys: "enter")
        XCTAssertEqual(harness.problems.count, 1)
        // The status line shows it, cut to the width, red in reverse video, and says where the
        // whole of it is (the developer console).
        XCTAssertEqual(frame, """
        |[ Go ]
        :aaaaaa
        |
        |native screen main:1:126: $.body.onP… F12: details
        :bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbccccccccccccc
        a = reverse
        b = reverse fg:red
        c = bold reverse fg:red
        """)
        XCTAssertTrue(harness.problems[0].hasSuffix("Failed to evaluate [1 / 0]. Division by zero is not supported."), harness.problems[0])
    }
}

extension InteractionTests {
    func testScrollViewsFollowTheFocus() throws {
        let harness = try AppHarness(size: (30, 4))
        let buttons = (1...8).map { #"{"type": "button", "label": "B\#($0)"}"# }.joined(separator: ",")
        let frame = try harness.frame("scroll-follows-focus", screen: AppHarness.screen(#"{"type": "scroll", "style": {"height": 4}, "children": [\#(buttons)]}"#),
                                   keys: "tab tab tab tab tab")
        // B6 focused and in view.
        XCTAssertEqual(frame, """
        |[ B3 ]                       ▲
        :                             a
        |[ B4 ]
        |[ B5 ]
        |[ B6 ]                       ▼
        :bbbbbb                       a
        a = dim
        b = reverse
        """)
    }

    func testNativeScreensOpenThroughTheRouter() throws {
        let harness = try AppHarness()
        harness.app.registerScreen("about") { params in
            try! JSONParser.parse(#"{"format": 1, "id": "about", "body": {"type": "text", "text": "About @{params.who}"}}"#).plain
        }
        let frame = try harness.frame("native-screen", screen: AppHarness.screen(#"{"type": "button", "label": "Go", "onPress": {"action": "navigate", "url": "app://about?who=Swift"}}"#),
                                   keys: "enter")
        XCTAssertEqual(frame, """
        |About Swift
        |
        |
        |
        |
        |
        |
        |
        """)
    }
}

/// What the review of the runtime found, each kept fixed.
final class InteractionEdgeTests: XCTestCase {
    func testSelectsMatchIntegerValuesBeforeIndexesAndUnboundWidgetsKeepTheirState() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("select-values", screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "select", "options": [{"label": "One", "value": 1}, {"label": "Two", "value": 2}, {"label": "Three", "value": 3}], "selected": "@{c}"},
          {"type": "checkbox", "label": "loose", "checked": false},
          {"type": "select", "options": ["a", "b"]},
          {"type": "text", "text": "c=@{c}"}]}
        """#, state: #"{"c": 1}"#), keys: "down tab space tab down")
        XCTAssertEqual(frame, """
        |[Two   ▾]
        |[x] loose
        |[b ▾]
        :aaaaa
        |c=2
        |
        |
        |
        |
        a = reverse
        """)
    }

    func testSelectionsStayInRangeWhenATableShrinks() throws {
        let harness = try AppHarness(size: (30, 8))
        let frame = try harness.frame("table-shrinks", screen: AppHarness.screen(#"""
        {"type": "table", "columns": ["n"], "rows": "@{rows}", "onSelect": {"action": "set", "path": "rows", "value": [["only"]]}}
        """#, state: #"{"rows": [["a"], ["b"], ["c"], ["d"]]}"#), keys: "end enter")
        // The one row left shows, selected.
        XCTAssertEqual(frame, """
        |n
        :aaaa
        |────
        :bbbb
        |only
        :cccc
        |
        |
        |
        |
        |
        a = bold
        b = dim
        c = reverse
        """)
    }

    func testATableRowsActionSeesItsIndexAndRow() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("table-row-action", screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "table", "columns": ["n"], "rows": [["a"], ["b"]], "onSelect": {"action": "set", "path": "picked", "value": "@{index}:@{row.0}"}},
          {"type": "text", "text": "picked @{picked}"}]}
        """#, state: #"{"picked": "-"}"#), keys: "down enter")
        XCTAssertEqual(frame, """
        |n
        :a
        |─
        :b
        |a
        |b
        :c
        |picked 1:b
        |
        |
        |
        a = bold
        b = dim
        c = reverse
        """)
    }

    func testSettingAValueThatIsNotInTheStateIsReportedNotInvented() throws {
        let harness = try AppHarness()
        _ = try harness.run(screen: AppHarness.screen(#"""
        {"type": "list", "items": [{"done": false}], "onSelect": {"action": "set", "path": "item.done", "value": true},
         "template": {"type": "text", "text": "x"}}
        """#), keys: "enter")
        XCTAssertNil(harness.app.currentScreen?.state["item"])
        XCTAssertTrue(harness.problems.contains { $0.contains(#"cannot set "item.done""#) }, "\(harness.problems)")
    }

    func testTabBoundByTheScreenReplacesFocusMovement() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("screen-binds-tab", screen: AppHarness.screen(#"""
        {"type": "column", "children": [{"type": "button", "label": "A"}, {"type": "text", "text": "tabs=@{n}"}]}
        """#, state: #"{"n": 0}"#, extra: #""keys": {"tab": {"action": "set", "path": "n", "value": "@{n + 1}"}}"#), keys: "tab tab")
        XCTAssertEqual(frame, """
        |[ A ]
        :aaaaa
        |tabs=2
        |
        |
        |
        |
        |
        |
        a = reverse
        """)
    }

    func testFocusMovesToANeighbourWhenTheFocusedWidgetGoesAway() throws {
        let harness = try AppHarness()
        let frame = try harness.frame("focus-neighbour", screen: AppHarness.screen(#"""
        {"type": "column", "children": [
          {"type": "list", "items": "@{names}", "template": {"type": "button", "label": "@{item}",
            "onPress": {"action": "set", "path": "names", "value": ["a", "b"]}}},
          {"type": "button", "label": "after"}]}
        """#, state: #"{"names": ["a", "b", "c"]}"#), keys: "tab tab enter space")
        // "c" was focused and pressed; it is gone, so focus lands on its neighbour "after".
        XCTAssertEqual(frame, """
        |[ a ]
        |[ b ]
        |[ after ]
        :aaaaaaaaa
        |
        |
        |
        |
        |
        a = reverse
        """)
    }

    func testAClickOnAWidgetScrolledOutOfSightHitsNothing() throws {
        let harness = try AppHarness(size: (20, 4))
        let buttons = (1...6).map { #"{"type": "button", "label": "B\#($0)", "onPress": {"action": "set", "path": "last", "value": "B\#($0)"}}"# }.joined(separator: ",")
        _ = try harness.run(screen: AppHarness.screen(#"""
        {"type": "column", "children": [{"type": "text", "text": "header"}, {"type": "scroll", "style": {"height": 3}, "children": [\#(buttons)]}]}
        """#, state: #"{"last": "-"}"#), keys: "tab tab tab")
        harness.app.handle(.mouse(MouseEvent(kind: .press(button: 0), x: 2, y: 0)))
        XCTAssertEqual(harness.app.currentScreen?.state["last"], .string("-"), "the header row is not a button")
        harness.app.handle(.mouse(MouseEvent(kind: .scrollUp, x: 2, y: 2)))
        // The wheel scrolled back up; focus stays on B4, now below the view.
        XCTAssertEqual(harness.frameNow("click-scrolled-away"), """
        |header
        |[ B1 ]
        |[ B2 ]
        |[ B3 ]             ▼
        :                   a
        a = dim
        """)
    }
}
