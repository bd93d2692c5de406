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

/// Parameters that are not JSON are refused at once, naming the place (issue 11).
final class ParameterConversionTests: XCTestCase {
    private func rejection(of params: String, for service: String = "test.echo") throws -> String {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        const params = \(params);
        hybrid.call('\(service)', params).then((v) => console.log('resolved'), (e) => console.log(e.code + ' ' + e.message));
        """)
        XCTAssertEqual(harness.failures, [])
        return output.first ?? ""
    }

    func testCyclicParamsAreBadParamsNamingTheCycle() throws {
        let message = try rejection(of: "(() => { const a = { v: 1 }; a.self = a; return { a }; })()")
        XCTAssertTrue(message.hasPrefix("E_BAD_PARAMS test.echo: $.a.self refers back to an object that contains it (a cycle)"), message)
    }

    func testParamsNestedTooDeepAreBadParams() throws {
        let message = try rejection(of: "(() => { let v = []; for (let i = 0; i < 20000; i++) v = [v]; return { v }; })()")
        XCTAssertTrue(message.hasPrefix("E_BAD_PARAMS test.echo: $.v[0][0]"), message)
        XCTAssertTrue(message.contains("nests deeper than 512 levels"), message)
    }

    func testAProxyTrapThatThrowsIsBadParamsWithACode() throws {
        let message = try rejection(of: "new Proxy({}, { get() { throw new Error('trap says no'); }, ownKeys() { return ['sku']; }, getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true }; } })", for: "cart.add")
        XCTAssertTrue(message.hasPrefix("E_BAD_PARAMS cart.add: $.sku could not be read: Error: trap says no"), message)
    }
}
