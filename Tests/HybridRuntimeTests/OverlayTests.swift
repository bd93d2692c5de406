import HybridBundles
import HybridRuntime
import TestSupport
import XCTest

/// `ui.dialog` and `ui.toast` (SPEC §3) as a person sees them: whole styled frames, the focus
/// trapped in a dialog until a button or Esc, a toast that goes after its time and never takes
/// the focus.
final class OverlayTests: XCTestCase {
    static let script = """
    ui.handler('ask', async () => {
      const choice = await ui.dialog({ title: 'Delete?', text: 'The note goes for good.',
        buttons: [{ id: 'keep', label: 'Keep' }, { id: 'delete', label: 'Delete' }] });
      state.set('answer', String(choice));
    });
    ui.handler('saved', () => ui.toast('Saved', { ms: 1500 }));
    ui.handler('failed', () => ui.toast('No server', { level: 'error' }));
    hybrid.ready();
    """

    /// The app after `keys`, its frame as `StyledFrame` shows it (and its rows).
    func run(_ name: String, _ keys: String) throws -> (frame: String, rows: [String]) {
        let harness = try AppHarness(size: (36, 7))
        try harness.write([
            "manifest.json": #"{"app": "t", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#,
            "home.json": AppHarness.screen(#"{"type": "column", "children": [{"type": "text", "text": "answer=@{answer}"}, {"type": "input", "value": "@{typed}"}]}"#,
                                           state: #"{"answer": "none", "typed": ""}"#, extra: #""keys": {"ctrl+d": "ask", "ctrl+s": "saved", "ctrl+o": "failed"}"#),
            "main.js": Self.script,
        ])
        try harness.app.load(bundle: XCTUnwrap(BundleFolder.open(harness.folder.path).value))
        let buffer = HeadlessDriver.run(harness.app, keys: try KeyScript(parsing: keys))
        return (StyledFrame.recorded(name, StyledFrame.text(of: buffer)), buffer.plainLines())
    }

    func testADialogShowsOverTheScreenWithTheFocusOnItsFirstButton() throws {
        XCTAssertEqual(try run("dialog-open", "ctrl+d").frame, """
        |answer=none
        |[   ┌─ Delete? ───────────────┐    ]
        :ab  ccdddddddddcccccccccccccccc    a
        |    │ The note goes for good. │
        :    ccccccccccccccccccccccccccc
        |    │                         │
        :    ccccccccccccccccccccccccccc
        |    │    [ Keep ]  [ Delete ] │
        :    ccccceeeeeeeecccccccccccccc
        |    └─────────────────────────┘
        :    ccccccccccccccccccccccccccc
        |
        a = bold
        b = reverse
        c = fg:brightWhite bg:blue
        d = bold fg:brightWhite bg:blue
        e = bold fg:blue bg:brightWhite
        """)
    }

    func testTheDialogKeepsTheFocusUntilAButtonOrEsc() throws {
        XCTAssertEqual(try run("dialog-delete", "ctrl+d x tab enter").rows[0], "answer=delete", "x went nowhere; Tab moved to Delete")
        XCTAssertEqual(try run("dialog-keep", "ctrl+d shift+tab shift+tab space").rows[0], "answer=keep")
        let cancelled = try run("dialog-esc", "ctrl+d esc x")
        XCTAssertEqual(cancelled.rows[0], "answer=null", "Esc answers null")
        XCTAssertTrue(cancelled.rows[1].hasPrefix("[x "), "after the dialog the input has the focus again")
    }

    func testAToastShowsForItsTimeWithoutTakingTheFocus() throws {
        XCTAssertEqual(try run("toast", "ctrl+s ctrl+o t e a").frame, """
        |answer=none                 • Saved
        :                           aaaaaaaaa
        |[tea                    ! No server
        :b   c                  ddddddddddddd
        |
        |
        |
        |
        |
        a = fg:black bg:cyan
        b = bold
        c = reverse
        d = bold fg:brightWhite bg:red
        """, "typing went on into the input under the toasts")
        let later = try run("toast-gone", "ctrl+s ctrl+o wait:1600ms").rows
        XCTAssertFalse(later[0].contains("Saved"), "gone after its 1.5 s: \(later)")
        XCTAssertTrue(later[0].contains("No server"), "the other stays its default 3 s: \(later)")
        XCTAssertFalse(try run("toasts-gone", "ctrl+s ctrl+o wait:3s").rows.joined().contains("!"))
    }
}
