import HybridBundles
import HybridJSON
import HybridRuntime
import XCTest

/// The app store (SPEC §3): one JSON tree shared by every screen, set before any screen opens,
/// read in bindings, written by actions and scripts, watched; only screens reading a changed
/// path are drawn again.
final class AppStoreTests: XCTestCase {
    static let manifest = #"""
    {"app": "shop", "version": "1.0.0", "entry": "main.js", "start": "home",
     "store": {"user": {"name": "?"}, "count": 0}, "screens": {"home": "home.json", "other": "other.json"}}
    """#
    static let home = #"""
    {"format": 1, "id": "home", "state": {"local": "mine"},
     "keys": {"n": {"action": "navigate", "url": "app://other"}, "i": {"action": "set", "path": "store.count", "value": "@{store.count + 1}"}},
     "body": {"type": "text", "text": "Hello @{store.user.name}: @{store.count} (@{local})"}}
    """#
    static let other = #"""
    {"format": 1, "id": "other", "keys": {"b": {"action": "back"}, "i": {"action": "set", "path": "store.count", "value": "@{store.count + 10}"}},
     "body": {"type": "text", "text": "Other sees @{store.count}"}}
    """#

    func start(_ script: String, keys: String = "") throws -> AppHarness {
        let harness = try AppHarness(size: (40, 3))
        try harness.write(["manifest.json": Self.manifest, "home.json": Self.home, "other.json": Self.other, "main.js": script])
        let load = BundleFolder.open(harness.folder.path)
        XCTAssertEqual(load.formattedDiagnostics, [])
        try harness.app.load(bundle: XCTUnwrap(load.value))
        _ = HeadlessDriver.run(harness.app, keys: try KeyScript(parsing: keys))
        return harness
    }

    func testTheEntryScriptFillsTheStoreBeforeAnyScreenAndEveryScreenSharesIt() throws {
        let harness = try start("""
        store.watch('count', (value, previous) => console.log('count ' + previous + ' -> ' + value));
        (async () => { const name = await Promise.resolve('Ada'); store.set('user.name', name); })();
        """, keys: "wait:10ms i i n i")
        XCTAssertEqual(harness.app.render().plainLines()[0], "Other sees 12")
        harness.app.handle(.key("b"))
        XCTAssertEqual(harness.app.render().plainLines()[0], "Hello Ada: 12 (mine)")
        XCTAssertEqual(harness.app.store.value(at: "count"), .integer(12))
        XCTAssertEqual(harness.problems.filter { !$0.contains("a development bundle") }, [])
    }

    func testStateWithNoScreenAndValuesThatAreNotJSONAreRefusedWithCodes() throws {
        let harness = try start("""
        const codes = [];
        for (const attempt of [() => state.set('x', 1), () => state.get('x'), () => state.watch('x', () => {}),
                               () => store.set('f', { f() {} }), () => store.set('a', [1, undefined]), () => store.set('b', 10n),
                               () => { const c = {}; c.c = c; store.set('c', c); }]) {
          try { attempt(); codes.push('none'); } catch (error) { codes.push(error.code + ': ' + error.message); }
        }
        store.set('codes', codes);
        """)
        let codes = harness.app.store.value(at: "codes").arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertEqual(codes.count, 7)
        XCTAssertTrue(codes[0].hasPrefix("E_NO_SCREEN: state.set: no screen is open yet"), codes[0])
        XCTAssertTrue(codes[0].contains("store.set(path, value)"), codes[0])
        XCTAssertTrue(codes[1].hasPrefix("E_NO_SCREEN: state.get"), codes[1])
        XCTAssertTrue(codes[2].hasPrefix("E_NO_SCREEN: state.watch"), codes[2])
        XCTAssertEqual(codes[3], #"E_BAD_VALUE: store.set("f", value): the value at $.f is a function, which JSON cannot hold"#)
        XCTAssertEqual(codes[4], #"E_BAD_VALUE: store.set("a", value): the value at $[1] is undefined, which JSON cannot hold (use null)"#)
        XCTAssertEqual(codes[5], #"E_BAD_VALUE: store.set("b", value): the value is a BigInt, which JSON cannot hold (use a number or a string)"#)
        XCTAssertTrue(codes[6].hasPrefix(#"E_BAD_VALUE: store.set("c", value): the value at $.c refers back"#), codes[6])
        XCTAssertEqual(harness.app.store.value(at: "f"), .null, "nothing is stored for a refused value")
    }

    func testOnlyAScreenReadingTheChangedPathIsDrawnAgain() throws {
        let harness = try start("""
        setTimeout(() => store.set('unread', 1), 100);
        setTimeout(() => store.set('user', { name: 'Ada' }), 200);
        """)
        _ = harness.app.render()
        XCTAssertFalse(harness.app.needsFrame)
        harness.app.loop.advance(by: 0.15)
        XCTAssertFalse(harness.app.needsFrame, "the screen on top does not read store.unread")
        harness.app.loop.advance(by: 0.1)
        XCTAssertTrue(harness.app.needsFrame, "it reads store.user.name, inside the changed path")
        XCTAssertEqual(harness.app.render().plainLines()[0], "Hello Ada: 0 (mine)")
    }

    func testUnwatchingStopsAWatcher() throws {
        let harness = try start("""
        let seen = 0;
        const handle = store.watch('count', () => { seen += 1; store.set('seen', seen); });
        store.set('count', 1);
        handle.remove();
        store.set('count', 2);
        """)
        XCTAssertEqual(harness.app.store.value(at: "seen"), .integer(1))
    }
}
