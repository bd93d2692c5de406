import Foundation
import HybridBridge
import HybridJSON
import HybridServices
import XCTest

/// SPEC §3's time limit covers every entry into JavaScript as a whole: the body, values read
/// while converting parameters, and microtasks (issue 11).
final class TimeLimitTests: XCTestCase {
    func testAQueueMicrotaskLoopIsStoppedAndReportedWhereItWasQueued() throws {
        let harness = try ScriptHarness(timeLimit: 0.2)
        try harness.run("""
        function again() { queueMicrotask(again); }
        again();
        setTimeout(() => console.log('the app goes on'), 1);
        """)
        XCTAssertEqual(harness.output, ["the app goes on"])
        XCTAssertEqual(harness.failures.count, 1, harness.failures.joined(separator: "\n"))
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("main.js") + ":1:"), harness.failures[0])
        XCTAssertTrue(harness.failures[0].contains("ran longer than the 0.2 s limit"), harness.failures[0])
    }

    func testAnEndlessPromiseChainIsStoppedAndReportedWhereItWasChained() throws {
        let harness = try ScriptHarness(timeLimit: 0.2)
        try harness.run("""
        function next() { return Promise.resolve().then(next); }
        next();
        setTimeout(() => console.log('the app goes on'), 1);
        """)
        XCTAssertEqual(harness.output, ["the app goes on"])
        XCTAssertEqual(harness.failures.count, 1, harness.failures.joined(separator: "\n"))
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("main.js") + ":1:"), harness.failures[0])
    }

    func testALoopStoppedInAPromiseCallbackIsReportedAndTheNextTimerRuns() throws {
        let harness = try ScriptHarness(timeLimit: 0.2)
        try harness.run("""
        Promise.resolve().then(() => {
          while (true) {}
        });
        setTimeout(() => console.log('timer ran'), 1);
        """)
        XCTAssertEqual(harness.output, ["timer ran"])
        XCTAssertEqual(harness.failures.count, 1, harness.failures.joined(separator: "\n"))
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("main.js") + ":1:1: stopped: "), harness.failures[0])
        XCTAssertEqual(harness.runtime.failureCount, 1)
    }

    func testAGetterThatLoopsWhileParamsAreDecodedIsStopped() throws {
        let harness = try ScriptHarness(services: testRegistry(), timeLimit: 0.2)
        try harness.run("""
        setTimeout(() => {
          const params = { get sku() { while (true) {} } };
          hybrid.callSync('cart.add', params);
          console.log('unreachable');
        }, 1);
        setTimeout(() => console.log('after'), 5);
        """)
        XCTAssertEqual(harness.output, ["after"])
        XCTAssertEqual(harness.failures.count, 1, harness.failures.joined(separator: "\n"))
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("main.js") + ":2:1: stopped: a timeout"), harness.failures[0])
    }
}
