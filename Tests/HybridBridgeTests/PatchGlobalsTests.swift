import Foundation
import HybridBridge
import HybridJSON
import XCTest

/// The hot-fix globals (patch-globals.js): `patch` and `defineClass` load the patch table
/// (patches.js) when a script first reads one, and until then every call through the table
/// (hybrid.call, handlers, patchable Swift functions, runaways) goes on as with an empty table.
/// What hooks do once loaded is PatchTests'.
final class PatchGlobalsTests: XCTestCase {
    func testTheGlobalsAreReadOnlyAndPermanentBeforeAndAfterTheirFirstUse() throws {
        let harness = try ScriptHarness()
        let output = try harness.run(ScriptHarness.globalProbes + """
        console.log(describe('patch'), describe('defineClass'), Object.keys(globalThis).includes('patch'), 'self' in globalThis, self);
        console.log(refused(() => { globalThis.patch = 1; }), refused(() => delete globalThis.defineClass),
                    refused(() => Object.defineProperty(globalThis, 'patch', { value: 1 })));
        console.log(typeof patch.replace, typeof defineClass, patch === patch, defineClass === defineClass, Object.isFrozen(patch));
        console.log(describe('patch'), refused(() => { globalThis.patch = 1; }), refused(() => delete globalThis.patch), self);
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            "false false true false false true false true undefined",
            "TypeError TypeError TypeError",
            "function function true true true",
            "false false true TypeError TypeError undefined",
        ])
    }

    /// Before any script reads `patch`, calls that would go through hooks go straight on: a
    /// service call, a handler, a patchable Swift function, and a runaway, which names no hook.
    func testCallsBeforeTheTableLoadsRunAsUnpatched() throws {
        let harness = try ScriptHarness(services: testRegistry(), timeLimit: 0.2)
        harness.services.patchableMethods.declare("Math.double") { (n: Int) in n * 2 }
        try harness.run("""
        WebViewJavascriptBridge.registerHandler('echo', (data, reply) => reply('echo ' + data));
        WebViewJavascriptBridge.registerHandler('spin', () => { while (true) {} });
        console.log(hybrid.callSync('test.echo', 'sync'));
        hybrid.call('test.echo', 'async').then((value) => console.log(value));
        """)
        var replies: [String] = []
        harness.runtime.callHandler("echo", data: .string("x")) { replies.append($0.stringValue ?? $0.jsonText) }
        harness.runtime.callHandler("spin", data: .null) { replies.append($0.jsonText) }
        XCTAssertEqual(harness.runtime.callPatchable("Math.double", 5) { (n: Int) in n * 2 }, 10)
        XCTAssertEqual(harness.output, ["sync", "async"])
        XCTAssertEqual(replies, ["echo x", #"{"error":{"code":"E_FAILED","message":"the handler spin failed: JavaScript execution terminated."}}"#])
        XCTAssertEqual(harness.failures.count, 1, harness.failures.joined(separator: "\n"))
        XCTAssertTrue(harness.failures[0].contains("main.js:2:"), harness.failures[0])
        XCTAssertTrue(harness.failures[0].contains("stopped: the handler spin ran longer than the 0.2 s limit"), harness.failures[0])
    }

    /// The table loads at the first read, after the script's earlier lines ran: when that
    /// load fails, the reading script gets the error, and the next read loads it again.
    func testAFailedLoadIsThrownIntoTheReaderAndTheNextReadTriesAgain() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        const saved = globalThis.WeakSet;
        globalThis.WeakSet = undefined;
        try { patch.before('service:test.echo', () => {}); } catch (error) { console.log('first read:', error.name); }
        globalThis.WeakSet = saved;
        patch.after('service:test.echo', (value) => 'patched ' + value);
        console.log(hybrid.callSync('test.echo', 'x'));
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, ["first read: TypeError", "patched x"])
    }
}
