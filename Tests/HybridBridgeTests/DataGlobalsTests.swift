import Foundation
import HybridBridge
import XCTest

/// The `api` and `db` globals (data-globals.js): their scripts are evaluated when first
/// needed, by a script or by Swift, and the globals stay what they were when defined at once:
/// read-only, permanent, the same frozen object at every read. (Swift needing `api` first, for
/// a screen's data block, is DataBlockTests' bundle with no script, through the binary.)
final class DataGlobalsTests: XCTestCase {
    func testTheGlobalsAreReadOnlyAndPermanentBeforeAndAfterTheirFirstUse() throws {
        let harness = try ScriptHarness()
        let output = try harness.run(ScriptHarness.globalProbes + """
        console.log(describe('api'), describe('db'), Object.keys(globalThis).includes('api'));
        console.log(refused(() => { globalThis.db = 1; }), refused(() => delete globalThis.db),
                    refused(() => Object.defineProperty(globalThis, 'api', { value: 1 })));
        console.log(typeof api.call, typeof db.query, api === api, db === db, Object.isFrozen(api), Object.isFrozen(db));
        console.log(describe('api'), refused(() => { globalThis.api = 1; }), refused(() => delete globalThis.api), typeof api.call);
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [
            "false false true false false true false",
            "TypeError TypeError TypeError",
            "function function true true true true",
            "false false true TypeError TypeError function",
        ])
    }

    /// A script that replaced built-ins before the first read still gets one frozen `api`:
    /// data-globals.js took what it relies on before any app script ran.
    func testReplacedBuiltInsDoNotReachTheGlobals() throws {
        let harness = try ScriptHarness()
        let output = try harness.run("""
        const isFrozen = Object.isFrozen;
        Map.prototype.get = function () { return undefined; };
        Map.prototype.set = function () { return this; };
        Object.freeze = (value) => value;
        console.log(api === api, db === db, isFrozen(api), isFrozen(db), typeof api.call);
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, ["true true true true function"])
    }
}
