import Foundation
import HybridBundles
import HybridEventLoop
import HybridRuntime
import HybridTerminal
import TestSupport
import XCTest

/// `HeadlessDriver` on a loop with a manual clock, as `hybrid run --headless` runs: `wait:`
/// takes no wall time and timers fire on their deadlines, while a call in flight is still
/// waited for in real time.
final class HeadlessDriverTests: XCTestCase {
    struct Empty: Codable, Sendable {}

    final class Problems: @unchecked Sendable {
        var lines: [String] = []
    }

    /// An app on a manual clock running a bundle with `script` and one text row showing `text`,
    /// with `keys` mapping key names to actions.
    func makeApp(script: String, text: String, state: String, keys: String = "{}") throws -> (HybridApp, ManualClock, Problems) {
        let folder = try makeTemporaryDirectory("headless")
        let files = [
            "manifest.json": #"{"app": "t", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}}"#,
            "home.json": #"{"format": 1, "id": "home", "state": \#(state), "keys": \#(keys), "body": {"type": "text", "text": "\#(text)"}}"#,
            "main.js": script,
        ]
        for (name, contents) in files {
            try contents.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let clock = ManualClock()
        let app = HybridApp(loop: EventLoop(clock: .manual(clock)))
        app.size = TerminalSize(columns: 40, rows: 2)
        let problems = Problems()
        app.onProblem = { problems.lines.append($0) }
        try app.load(bundle: XCTUnwrap(BundleFolder.open(folder.path).value))
        return (app, clock, problems)
    }

    func firstRow(_ app: HybridApp, _ keys: String) throws -> String {
        HeadlessDriver.run(app, keys: try KeyScript(parsing: keys)).plainLines()[0].trimmingCharacters(in: .whitespaces)
    }

    /// The marquee's 120 ms interval: eight ticks in a second, ten by 1.2 s, a minute in no time.
    func testWaitLetsVirtualTimePassAndTimersKeepTheirRhythm() throws {
        let ticker = "setInterval(() => state.set('n', state.get('n') + 1), 120); hybrid.ready();"
        for (keys, expected) in [("wait:119ms", 0), ("wait:120ms", 1), ("wait:1s", 8), ("wait:1s wait:200ms", 10), ("wait:60s", 500)] {
            let (app, clock, _) = try makeApp(script: ticker, text: "n=@{n}", state: #"{"n": 0}"#)
            let start = Date()
            XCTAssertEqual(try firstRow(app, keys), "n=\(expected)", keys)
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, "\(keys) took wall time")
            XCTAssertEqual(clock.seconds, try KeyScript(parsing: keys).steps.reduce(0.0) { total, step in
                if case .wait(let seconds) = step { total + seconds } else { total }
            }, accuracy: 1e-9)
        }
    }

    /// A timer a key starts fires on its deadline, not a millisecond early.
    func testATimerStartedByAKeyFiresOnItsDeadline() throws {
        let script = "ui.handler('later', () => setTimeout(() => state.set('done', true), 200)); hybrid.ready();"
        for (keys, expected) in [("x wait:199ms", false), ("x wait:150ms wait:50ms", true)] {
            let (app, _, _) = try makeApp(script: script, text: "done=@{done}", state: #"{"done": false}"#, keys: #"{"x": "later"}"#)
            XCTAssertEqual(try firstRow(app, keys), "done=\(expected)", keys)
        }
    }

    /// A call in flight is waited for in real time, without moving virtual time past it.
    func testACallInFlightIsWaitedForInRealTime() throws {
        let (app, clock, problems) = try makeApp(script: "setTimeout(() => state.set('late', true), 1000); hybrid.ready();",
                                                 text: "@{answer} late=@{late}", state: #"{"answer": "", "late": false}"#,
                                                 keys: #"{"q": {"action": "call", "service": "test.slow", "params": {}, "result": "answer"}}"#)
        app.services.register("test.slow") { (_: Empty) async throws -> String in
            try await Task.sleep(nanoseconds: 50_000_000)
            return "slow"
        }
        XCTAssertEqual(try firstRow(app, "q"), "slow late=false")
        XCTAssertLessThan(clock.seconds, 1, "settling moved time only as far as real time went")
        XCTAssertEqual(problems.lines.filter { !$0.contains("development bundle") }, [])
    }

    /// A call's timeout still bounds it: the clock follows real time while the call is in flight.
    func testACallThatNeverAnswersTimesOutAsInRealTime() throws {
        let (app, _, problems) = try makeApp(script: "hybrid.ready();", text: "answer=@{answer}", state: #"{"answer": ""}"#,
                                             keys: #"{"q": {"action": "call", "service": "test.stuck", "params": {}, "result": "answer"}}"#)
        app.services.register("test.stuck", timeout: 0.1) { (_: Empty) async throws -> String in
            try await Task.sleep(nanoseconds: 30_000_000_000)
            return "never"
        }
        let start = Date()
        XCTAssertEqual(try firstRow(app, "q"), "answer=")
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(elapsed, 0.09)
        XCTAssertLessThan(elapsed, HeadlessDriver.settleLimit)
        XCTAssertTrue(problems.lines.contains { $0.hasPrefix("E_TIMEOUT: test.stuck did not answer within") }, "\(problems.lines)")
    }

    /// A call action sets its answer whether the service is sync or async (here answering
    /// without waiting), and a failure is reported naming the screen; nothing stays in flight.
    func testACallActionSetsItsAnswerOrReportsItsFailure() throws {
        let keys = #"{"s": {"action": "call", "service": "test.sync", "params": {}, "result": "answer"}, "a": {"action": "call", "service": "test.ready", "params": {}, "result": "answer"}, "m": {"action": "call", "service": "test.missing", "params": {}, "result": "answer"}}"#
        let (app, _, problems) = try makeApp(script: "hybrid.ready();", text: "answer=@{answer}", state: #"{"answer": ""}"#, keys: keys)
        app.services.register("test.sync") { (_: Empty) -> String in "sync" }
        app.services.register("test.ready") { (_: Empty) async throws -> String in "async" }
        XCTAssertEqual(try firstRow(app, "s"), "answer=sync")
        XCTAssertEqual(try firstRow(app, "a"), "answer=async")
        XCTAssertEqual(try firstRow(app, "m"), "answer=async", "a failure leaves the state as it was")
        XCTAssertTrue(problems.lines.contains { $0.hasPrefix(#"E_NO_SERVICE: no service named "test.missing""#) && $0.hasSuffix("(a call action of home)") },
                      "\(problems.lines)")
        XCTAssertFalse(app.loop.hasWorkInFlight)
    }
}
