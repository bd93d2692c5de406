import Foundation
import HybridBridge
import HybridJSON
import HybridJavaScript
import HybridServices
import XCTest

/// Scripts that push on the bridge's edges: big values, runaways around service calls,
/// absurd timers, odd module files.
final class RobustnessTests: XCTestCase {
    /// The script was stopped once, by the 0.2 s limit, and the app went on: the timer it set
    /// first printed `alive`, and nothing after the stop printed.
    private func assertStoppedOnce(_ harness: ScriptHarness, output: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(output, ["alive"], file: file, line: line)
        XCTAssertEqual(harness.failures.count, 1, "\(harness.failures)", file: file, line: line)
        XCTAssertTrue(harness.failures.first?.contains("ran longer than the 0.2 s limit") ?? false, "\(harness.failures)", file: file, line: line)
    }

    func testArraysAndDatesReachServicesAsTheyAre() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        console.log(JSON.stringify(hybrid.callSync('test.echo', { list: [1, 'two', { x: [3] }], when: new Date(0) })));
        console.log(JSON.stringify(hybrid.callSync('test.echo', [[1, 2], []])));
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, [#"{"list":[1,"two",{"x":[3]}],"when":"1970-01-01T00:00:00.000Z"}"#, #"[[1,2],[]]"#])
    }

    /// Only a plain object is taken for a service's parameter object: a date, an array or a
    /// function is refused even where every field is optional (the prelude tells Swift when the
    /// value is plain, so Swift asks the engine fewer questions).
    func testOnlyPlainObjectsAreParameterObjects() throws {
        struct Maybe: Codable, Sendable { var note: String? }
        let services = ServiceRegistry()
        services.register("test.maybe") { (maybe: Maybe) in maybe.note ?? "none" }
        let harness = try ScriptHarness(services: services)
        let output = try harness.run("""
        for (const params of [{}, { note: 'hi' }, Object.create(null), new Date(0), [], () => 1]) {
          try { console.log(hybrid.callSync('test.maybe', params)); } catch (e) { console.log(e.code); }
        }
        """)
        XCTAssertEqual(output, ["none", "hi", "none", "E_BAD_PARAMS", "E_BAD_PARAMS", "E_BAD_PARAMS"])
    }

    func testLargeValuesSurviveGarbageCollectionOnTheWayBack() throws {
        let services = ServiceRegistry()
        services.register("test.big") { (_: Empty) in (0..<150_000).map { "item \($0)" } }
        // Not a test of the time limit: under AddressSanitizer (scripts/sanitize.sh) the
        // service alone takes longer than the default second.
        let harness = try ScriptHarness(services: services, timeLimit: 60)
        let output = try harness.run("""
        const big = hybrid.callSync('test.big');
        let wrong = 0;
        for (let i = 0; i < big.length; i++) if (big[i] !== 'item ' + i) wrong++;
        console.log(big.length, wrong);
        """)
        XCTAssertEqual(output, ["150000 0"])
    }

    /// A sync service's time counts against the entry that called it: one that outlasts the
    /// limit and answers with an array or object stops the script, and its answer is not made.
    func testAnAnswerMadeAfterTheTimeLimitStopsTheScriptWithoutCrashing() throws {
        let services = ServiceRegistry()
        services.register("test.slow") { (_: Empty) -> [String: [Int]] in
            let start = ContinuousClock.now
            var spin = 0
            // The limit counts processor time: spin rather than sleep.
            while ContinuousClock.now - start < .milliseconds(400) { spin &+= 1 }
            return ["items": [spin & 1, 2, 3]]
        }
        let harness = try ScriptHarness(services: services, timeLimit: 0.2)
        let output = try harness.run("""
        setTimeout(() => console.log('alive'), 10);
        const answer = hybrid.callSync('test.slow');
        console.log('not reached', answer.items.length);
        """)
        assertStoppedOnce(harness, output: output)
    }

    /// The same with a service that fails after the limit: its error does not reach the script.
    func testAFailureAnsweredAfterTheTimeLimitStopsTheScriptWithoutCrashing() throws {
        let services = ServiceRegistry()
        services.register("test.slowFailure") { (_: Empty) throws -> Int in
            let start = ContinuousClock.now
            var spin = 0
            while ContinuousClock.now - start < .milliseconds(400) { spin &+= 1 }
            throw ServiceError(.failed, "gave up after \(spin & 1) spins")
        }
        let harness = try ScriptHarness(services: services, timeLimit: 0.2)
        let output = try harness.run("""
        setTimeout(() => console.log('alive'), 10);
        hybrid.callSync('test.slowFailure');
        console.log('not reached');
        """)
        assertStoppedOnce(harness, output: output)
    }

    /// A getter read while a service's parameters are converted that calls the service again with
    /// parameters of its own kind: once the limit stops the innermost script, every level stops
    /// at once (each level read its value again when the first reading failed, which doubled the
    /// work of the levels below it and ended the process).
    func testAGetterThatCallsAServiceWithItselfIsStoppedByTheTimeLimit() throws {
        let harness = try ScriptHarness(services: testRegistry(), timeLimit: 0.2)
        let output = try harness.run("""
        setTimeout(() => console.log('alive'), 10);
        function nest() { return { get x() { return hybrid.callSync('test.echo', nest()); } }; }
        hybrid.callSync('test.echo', nest());
        console.log('not reached');
        """)
        assertStoppedOnce(harness, output: output)
    }

    func testARunawayLoopAroundServiceCallsIsStillStopped() throws {
        let harness = try ScriptHarness(services: testRegistry(), timeLimit: 0.2)
        let output = try harness.run("""
        setTimeout(() => console.log('alive'), 10);
        while (true) { hybrid.call('no.such').catch(() => {}); hybrid.callSync('test.echo', 1); }
        """)
        assertStoppedOnce(harness, output: output)
    }

    func testARunawayIntervalIsCancelled() throws {
        let harness = try ScriptHarness(timeLimit: 0.1)
        try harness.run("setInterval(() => { while (true) {} }, 1);")
        XCTAssertEqual(harness.failures.count, 1, "stopped once, then cancelled: \(harness.failures)")
    }

    /// A delay is a 32-bit integer of milliseconds, as in a browser (Web IDL `long`): `Infinity`
    /// and `NaN` are 0, 2**31 wraps to a negative delay, which runs at once, and 2**32 + 5 to 5.
    func testDelaysAreTakenAsBrowsersTakeThem() throws {
        let harness = try ScriptHarness()
        let output = try harness.run("""
        const ids = [setTimeout(() => console.log('2**32 + 5'), 2 ** 32 + 5), setTimeout(() => console.log('1'), 1)];
        for (const delay of [Infinity, -Infinity, NaN, 2 ** 31, -5, '0x0', undefined]) ids.push(setTimeout(() => console.log(String(delay)), delay));
        // What has not run by then never will: the test ends rather than waits for it.
        setTimeout(() => ids.forEach(clearTimeout), 100);
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output, ["Infinity", "-Infinity", "NaN", "2147483648", "-5", "0x0", "undefined", "1", "2**32 + 5"])
    }

    func testAbsurdDelaysAndTimeoutsDoNotCrash() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let output = try harness.run("""
        const a = setTimeout(() => console.log('never'), Infinity);
        const b = setTimeout(() => console.log('never'), 1e300);
        setTimeout(() => console.log('NaN is zero'), NaN);
        clearTimeout(a); clearTimeout(b);
        hybrid.call('test.later', { ms: 1 }, { timeout: 1e300 }).then((v) => console.log(v));
        """)
        XCTAssertEqual(harness.failures, [])
        XCTAssertEqual(output.sorted(), ["NaN is zero", "after 1 ms"])
    }

    func testLocationsOnALongFirstLineAndInSnippets() throws {
        let harness = try ScriptHarness(services: testRegistry())
        let padding = String(repeating: " ", count: 100)
        let output = try harness.run(padding + "hybrid.call('no.such').catch((e) => console.log(e.message));")
        XCTAssertEqual(output, ["no service named \"no.such\" (called at \(harness.path("main.js")):1:112)"])
        harness.runtime.evaluate("nope()", sourceURL: "snippet.js")
        XCTAssertTrue(harness.failures.last?.hasPrefix("snippet.js:1:5: ReferenceError") ?? false, "\(harness.failures)")
    }

    func testSyntaxErrorsInModulesPointAtTheirToken() throws {
        let harness = try ScriptHarness()
        try harness.run("require('./broken');", files: ["broken.js": "const x = 1;\nconst y = ;\n"])
        XCTAssertEqual(harness.failures.count, 1)
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("broken.js") + ":2:11: SyntaxError: Unexpected token ';'"), harness.failures[0])
    }

    func testAShebangLineIsAllowedAndAFailedModuleIsNotCachedHalfLoaded() throws {
        let harness = try ScriptHarness()
        let output = try harness.run("""
        #!/usr/bin/env hybrid eval
        try { require('./flaky'); } catch (e) { console.log('first: ' + e.message); }
        try { require('./flaky'); } catch (e) { console.log('second: ' + e.message); }
        """, files: ["flaky.js": "exports.partial = true;\nthrow new Error('not ready');"])
        XCTAssertEqual(output, ["first: not ready", "second: not ready"])
    }

    func testJSONModulesAreDataNotCode() throws {
        let harness = try ScriptHarness()
        let output = try harness.run("""
        try { require('./evil.json'); } catch (e) { console.log(e.name); }
        console.log(typeof globalThis.pwned);
        """, files: ["evil.json": "(globalThis.pwned = 1)"])
        XCTAssertEqual(output, ["SyntaxError", "undefined"])
    }

    func testRequireCannotFollowALinkOutOfTheFolder() throws {
        let harness = try ScriptHarness()
        let outside = harness.folder.deletingLastPathComponent().appendingPathComponent("secret-\(UUID().uuidString).js")
        try "module.exports = 'secret';".write(to: outside, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(at: harness.folder.appendingPathComponent("link.js"), withDestinationURL: outside)
        let output = try harness.run("try { console.log(require('./link')); } catch (e) { console.log(e.message.includes('is a link to a file outside')); }")
        XCTAssertEqual(output, ["true"])
    }

    func testValuesThrownWithoutALocationAreStillPlaced() throws {
        let harness = try ScriptHarness()
        try harness.run("Promise.reject(42);")
        XCTAssertEqual(harness.failures.count, 1)
        XCTAssertTrue(harness.failures[0].hasPrefix(harness.path("main.js") + ": unhandled promise rejection"), harness.failures[0])
    }

    func testAHandlerThatFailsBeforeAnsweringStillAnswers() throws {
        let harness = try ScriptHarness(timeLimit: 0.2)
        try harness.run("WebViewJavascriptBridge.registerHandler('spin', () => { while (true) {} });")
        var replies: [JSONValue] = []
        harness.runtime.callHandler("spin", data: .null) { replies.append($0) }
        XCTAssertEqual(replies.first?["error"]?["code"], .string("E_FAILED"))
    }

    func testShutdownEndsEverythingInFlight() throws {
        let harness = try ScriptHarness(services: testRegistry())
        try harness.write(["main.js": "setInterval(() => {}, 5); hybrid.call('test.later', { ms: 5000 });"])
        harness.runtime.runMain(path: harness.path("main.js"))
        let loop = harness.runtime.loop
        XCTAssertTrue(loop.hasPendingWork)
        harness.runtime.shutdown()
        // The cancelled call may still post its (now ignored) answer: let the loop drain what
        // is queued. Without the shutdown the interval would keep it running; the safety stop
        // keeps a regression from hanging the suite.
        loop.schedule(after: 10, keepsAlive: false) { loop.stop() }
        loop.run(untilIdle: true)
        XCTAssertFalse(loop.hasPendingWork)
    }
}
