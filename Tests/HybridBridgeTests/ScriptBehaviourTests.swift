import HybridBridge
import HybridJSON
import HybridServices
import XCTest

final class ScriptBehaviourTests: XCTestCase {
    func testTimersMicrotasksAndPromisesRunInTheirOrder() throws {
        // Every order asserted here follows from the code, not from the clock: timers with one
        // delay run in the order they were set, a shorter delay set later still runs later,
        // and what a timer sets runs after it.
        let harness = try ScriptHarness()
        let output = try harness.run("""
        console.log('sync 1');
        setTimeout(() => console.log('timeout 0 a'), 0);
        setTimeout(() => console.log('timeout 0 b'), 0);
        const cancelled = setTimeout(() => console.log('never'), 0);
        clearTimeout(cancelled);
        setTimeout((a, b) => console.log('args ' + a + b), 0, 'x', 'y');
        let ticks = 0;
        const interval = setInterval(() => {
          ticks += 1;
          console.log('tick ' + ticks);
          if (ticks === 3) {
            clearInterval(interval);
            setTimeout(() => console.log('after the interval'), 0);
          }
        }, 1);
        queueMicrotask(() => console.log('microtask'));
        Promise.resolve().then(() => console.log('promise'));
        console.log('sync 2');
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, ["sync 1", "sync 2", "microtask", "promise", "timeout 0 a", "timeout 0 b", "args xy",
                                "tick 1", "tick 2", "tick 3", "after the interval"])
    }

    func testAThrownErrorIsReportedWithItsLocationAndTheAppGoesOn() throws {
        let harness = try ScriptHarness()
        let output = try harness.run("""
        setTimeout(() => console.log('still running'), 5);
        function broken() {
          return null.property;
        }
        broken();
        """)
        XCTAssertEqual(output, ["still running"])
        XCTAssertEqual(harness.failures.count, 1)
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("main.js") + ":3:14: TypeError: null is not an object"), harness.failures[0])
        XCTAssertTrue(harness.failures[0].contains("at broken@"), harness.failures[0])
    }

    func testUnhandledRejectionsAreReported() throws {
        let harness = try ScriptHarness(services: testRegistry())
        try harness.run("""
        Promise.reject(new Error('nobody listens'));
        hybrid.call('no.such');
        """)
        XCTAssertEqual(harness.failures.count, 2, "\(harness.failures)")
        XCTAssertTrue(harness.failures[0].contains("main.js:1:"), harness.failures[0])
        XCTAssertTrue(harness.failures[0].contains("unhandled promise rejection: Error: nobody listens"), harness.failures[0])
        XCTAssertTrue(harness.failures[1].contains("main.js:2:"), harness.failures[1])
        XCTAssertTrue(harness.failures[1].contains("E_NO_SERVICE") || harness.failures[1].contains("no service named \"no.such\""), harness.failures[1])
    }

    func testARunawayScriptIsStoppedAndTheContextStaysUsable() throws {
        let harness = try ScriptHarness(timeLimit: 0.2)
        let output = try harness.run("""
        setTimeout(() => { try { while (true) {} } catch (e) { console.log('caught?'); } }, 1);
        setTimeout(() => console.log('after the runaway'), 20);
        """)
        XCTAssertEqual(output, ["after the runaway"])
        XCTAssertEqual(harness.failures.count, 1)
        XCTAssertTrue(harness.failures[0].contains("main.js:1:1: stopped: a timeout ran longer than the 0.2 s limit"), harness.failures[0])
        XCTAssertEqual(harness.runtime.evaluate("6 * 7"), .integer(42))
    }

    func testRequireLoadsModulesInsideTheFolderOnly() throws {
        let harness = try ScriptHarness()
        let output = try harness.run("""
        const math = require('./lib/math');
        const data = require('./data.json');
        console.log(math.double(21), data.name, require('./lib/math.js') === math);
        try { require('../outside.js'); } catch (e) { console.log(e.message); }
        try { require('fs'); } catch (e) { console.log(e.message); }
        try { require('./missing'); } catch (e) { console.log('missing:', e.message.startsWith('require("./missing"): no file')); }
        """, files: [
            "lib/math.js": "const helper = require('./helper');\nexports.double = (x) => helper.times(x, 2);",
            "lib/helper.js": "module.exports = { times: (a, b) => a * b };",
            "data.json": #"{"name": "data"}"#,
        ])
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output.count, 4, "\(output)")
        XCTAssertEqual(output[0], "42 data true")
        XCTAssertEqual(output[1], #"require("../outside.js"): "# + (harness.folder.deletingLastPathComponent().path + "/outside.js") + " is outside the script's folder " + harness.folder.path)
        XCTAssertEqual(output[2], #"require("fs"): only relative paths (./ or ../) inside the script's folder can be loaded"#)
        XCTAssertEqual(output[3], "missing: true")
    }

    func testErrorsInModulesPointAtTheirOwnFileAndLine() throws {
        let harness = try ScriptHarness()
        try harness.run("require('./bad');", files: ["bad.js": "const a = 1;\nconst b = a.missing.field;"])
        XCTAssertEqual(harness.failures.count, 1)
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("bad.js") + ":2:20: TypeError"), harness.failures[0])
    }

    func testConsoleFormatsValuesAndLevels() throws {
        let harness = try ScriptHarness()
        let output = try harness.run("""
        console.log('text', 1, true, null, undefined, [1, 'a'], { k: { n: 2 } }, function named() {});
        console.warn('careful'); console.error('bad'); console.info('fyi');
        """)
        XCTAssertEqual(output, [#"text 1 true null undefined [ 1, "a" ] { k: { n: 2 } } [Function: named]"#, "warn: careful", "error: bad", "info: fyi"])
    }

    func testReadyIsReported() throws {
        let harness = try ScriptHarness()
        var readyCalls = 0
        harness.runtime.onReady = { readyCalls += 1 }
        try harness.run("setTimeout(() => { hybrid.ready(); hybrid.ready(); }, 1);")
        XCTAssertTrue(harness.runtime.isReady)
        XCTAssertEqual(readyCalls, 1)
    }
}
