import HybridBundles
import HybridJSON
import HybridRuntime
import XCTest

/// Apps whose behaviour is JavaScript: handlers, `ui.*` and `state.*` (SPEC §3).
final class ScriptedAppTests: XCTestCase {
    func run(script: String, screen: String, keys: String, size: (Int, Int) = (40, 6)) throws -> (rows: [String], harness: AppHarness) {
        let harness = try AppHarness(size: size)
        try harness.write([
            "manifest.json": #"{"app": "t", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#,
            "home.json": screen,
            "main.js": script,
        ])
        let load = BundleFolder.open(harness.folder.path)
        XCTAssertEqual(load.formattedDiagnostics, [])
        try harness.app.load(bundle: XCTUnwrap(load.value))
        return (HeadlessDriver.run(harness.app, keys: try KeyScript(parsing: keys)).plainLines(), harness)
    }

    func testHandlersStateAndWatchers() throws {
        let (rows, _) = try run(script: """
        ui.handler('inc', (event) => state.set('n', state.get('n') + (event.key === '+' ? 1 : 10)));
        ui.handler('setup', () => state.watch('n', (value) => state.set('log', state.get('log') + ',' + value)));
        """, screen: AppHarness.screen(#"{"type": "text", "text": "n=@{n} log=@{log}"}"#, state: #"{"n": 0, "log": ""}"#,
                                       extra: #""keys": {"+": "inc", "*": "inc"}, "onAppear": "setup""#), keys: "+ * +")
        XCTAssertEqual(rows[0], "n=12 log=,1,11,12")
    }

    func testUpdateChangesANodesPropsAndShowOpensAScriptBuiltScreen() throws {
        let (rows, harness) = try run(script: """
        ui.handler('rename', () => ui.update('title', { text: 'Renamed', style: { bold: true } }));
        ui.handler('open', () => ui.push({ format: 1, id: 'built', state: { from: ui.screen },
          body: { type: 'text', text: 'built from @{from}' }, keys: { esc: { action: 'back' } } }));
        """, screen: AppHarness.screen(#"{"type": "column", "children": [{"type": "text", "id": "title", "text": "Title"}]}"#,
                                       extra: #""keys": {"r": "rename", "o": "open"}"#), keys: "r")
        XCTAssertEqual(rows[0], "Renamed")
        harness.app.handle(.key("o"))
        XCTAssertEqual(harness.app.render().plainLines()[0], "built from main", "ui.screen is the document id")
        harness.app.handle(.key("esc"))
        XCTAssertEqual(harness.app.render().plainLines()[0], "Renamed")
    }

    func testAnUpdateThatBreaksTheScreenIsLocatedAtTheCallingLine() throws {
        let (rows, harness) = try run(script: "ui.handler('go', () => {\n  ui.update('t', { style: { width: 'wide' } });\n});\n",
                                      screen: AppHarness.screen(#"{"type": "text", "id": "t", "text": "kept"}"#, extra: #""keys": {"x": "go"}"#),
                                      keys: "x")
        XCTAssertEqual(rows[0], "kept", "the screen keeps its document")
        let problem = try XCTUnwrap(harness.problems.first { $0.contains("ui.update") })
        XCTAssertTrue(problem.hasPrefix(harness.folder.path + "/main.js:2:"), "at the calling line, not in the bridge: \(problem)")
        XCTAssertTrue(problem.contains(#"ui.update("t"): $.body.style.width: expected a number"#),
                      "named by its JSON path, not a position in regenerated text: \(problem)")
    }

    func testAHandlerThatThrowsIsReportedAndTheAppGoesOn() throws {
        let (rows, harness) = try run(script: """
        ui.handler('boom', () => { null.x; });
        ui.handler('ok', () => state.set('fine', true));
        """, screen: AppHarness.screen(#"{"type": "text", "text": "fine=@{fine}"}"#, state: #"{"fine": false}"#,
                                       extra: #""keys": {"b": "boom", "k": "ok"}"#), keys: "b k", size: (60, 3))
        XCTAssertEqual(rows[0], "fine=true")
        let failures = harness.problems.filter { !$0.contains("development bundle") }
        XCTAssertEqual(failures.count, 1, "\(harness.problems)")
        XCTAssertTrue(failures.first?.hasPrefix(harness.folder.path + "/main.js:1:32: TypeError") ?? false, "\(failures)")
    }

    func testAScriptComponentRendersLikeADocumentOne() throws {
        let (rows, _) = try run(script: """
        ui.component('badge', (props) => ({ type: 'text', text: `[${props.label.toUpperCase()}]` }));
        """, screen: AppHarness.screen(#"{"type": "row", "children": [{"type": "component", "name": "badge", "props": {"label": "@{tag}"}}]}"#,
                                       state: #"{"tag": "new"}"#), keys: "")
        XCTAssertEqual(rows[0], "[NEW]")
    }
}

extension ScriptedAppTests {
    func testUpdateKeepsWhatTheUserTypedAndTheFocusOfWidgetsWithIDs() throws {
        let (_, harness) = try run(script: """
        ui.handler('retitle', () => ui.update('title', { text: 'Retitled' }));
        """, screen: AppHarness.screen(#"""
        {"type": "column", "children": [{"type": "text", "id": "title", "text": "Title"},
          {"type": "input", "id": "note", "style": {"width": 14}}]}
        """#, extra: #""keys": {"ctrl+t": "retitle"}"#), keys: #""draft" ctrl+t " more""#)
        XCTAssertEqual(harness.app.render().plainLines().prefix(2), ["Retitled", "[draft more  ]"])
    }
}
