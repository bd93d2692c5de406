import Foundation
@testable import HybridBridge
import HybridEventLoop
import HybridJSON
import HybridJavaScript
import HybridServices
import XCTest

/// The parts `ScriptRuntime` coordinates, each tested alone: with no script (`ScriptTimers`,
/// `PendingCalls`, `ScriptLocator`) or a bare context (`ScriptEntries`, `PatchHooks`).
final class ScriptTimersTests: XCTestCase {
    func testTimersFireInTheirOrderAndAreNumberedFromOne() {
        let loop = EventLoop()
        var fired: [String] = []
        let timers = ScriptTimers<String>(loop: loop) { callback, _ in
            fired.append(callback)
            return true
        }
        XCTAssertEqual(timers.start("a", after: 0, repeating: false), 1)
        XCTAssertEqual(timers.start("b", after: 0, repeating: false), 2)
        let cleared = timers.start("never", after: 0, repeating: false)
        timers.clear(cleared)
        timers.clear(99)
        XCTAssertEqual(timers.count, 2)
        loop.run(untilIdle: true)
        XCTAssertEqual(fired, ["a", "b"])
        XCTAssertEqual(timers.count, 0, "a timeout is gone once it ran")
    }

    func testAnIntervalRepeatsUntilClearedOrRunAway() {
        let loop = EventLoop()
        var ticks = 0
        var interval = 0
        var timers: ScriptTimers<String>!
        timers = ScriptTimers<String>(loop: loop) { callback, repeating in
            XCTAssertTrue(repeating)
            ticks += 1
            if callback == "cleared", ticks == 3 { timers.clear(interval) }
            return callback != "runaway"
        }
        interval = timers.start("cleared", after: 0.001, repeating: true)
        loop.run(untilIdle: true)
        XCTAssertEqual(ticks, 3)
        ticks = 0
        _ = timers.start("runaway", after: 0.001, repeating: true)
        loop.run(untilIdle: true)
        XCTAssertEqual(ticks, 1, "an interval that ran away would run away again on every tick")
        XCTAssertEqual(timers.count, 0)
        // The callback holds `timers` (it clears through it): freed only once that is let go.
        timers = nil
    }

    func testClearAllLeavesTheLoopIdle() {
        let loop = EventLoop()
        let timers = ScriptTimers<String>(loop: loop) { _, _ in
            XCTFail("cleared timers never fire")
            return true
        }
        _ = timers.start("interval", after: 0.001, repeating: true)
        _ = timers.start("timeout", after: 60, repeating: false)
        XCTAssertTrue(loop.hasPendingWork)
        timers.clearAll()
        XCTAssertFalse(loop.hasPendingWork)
        XCTAssertEqual(timers.count, 0)
    }
}

final class PendingCallsTests: XCTestCase {
    /// A job that never waits answers inside `start`, like a sync service: nothing in flight.
    func testAJobThatDoesNotWaitAnswersAtOnce() {
        let loop = EventLoop()
        let calls = PendingCalls(loop: loop)
        let started = calls.start({ "done" }, name: "test.now", timeout: 60) {
            { _ in XCTFail("an answer given at once is not settled later") }
        }
        guard case .answered(let result) = started else { return XCTFail("\(started)") }
        XCTAssertEqual(try? result.get(), .string("done"))
        XCTAssertEqual(calls.count, 0)
        XCTAssertFalse(loop.hasPendingWork, "no work in flight, no timeout")
        let failed = calls.start({ throw ServiceError(.denied, "no") }, name: "test.denied", timeout: nil) { { _ in } }
        let odd = calls.start({ throw CocoaLikeError() }, name: "test.odd", timeout: nil) { { _ in } }
        let messages = [failed, odd].compactMap { started -> String? in
            guard case .answered(.failure(let error)) = started else { return nil }
            return "\(error.code.rawValue) \(error.message)"
        }
        XCTAssertEqual(messages, ["E_DENIED no", "E_FAILED test.odd failed: odd"])
    }

    func testACallThatWaitsSettlesOnceWithItsAnswerOnTheLoop() {
        let loop = EventLoop()
        let calls = PendingCalls(loop: loop)
        var answers: [Result<JSONValue, ServiceError>] = []
        let started = calls.start({
            try await Task.sleep(nanoseconds: 1_000_000)
            return "done"
        }, name: "test.later", timeout: 60) { { answers.append($0) } }
        guard case .inFlight = started else { return XCTFail("\(started)") }
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(loop.hasWorkInFlight, "counted as work in flight until it settles")
        loop.run(untilIdle: true)
        XCTAssertEqual(answers.map { try? $0.get() }, [.string("done")])
        XCTAssertEqual(calls.count, 0)
        XCTAssertFalse(loop.hasPendingWork, "the timeout went with the answer")
    }

    func testTheTimeoutWinsOverAJobThatNeverAnswersAndCancelsIt() {
        let loop = EventLoop()
        let calls = PendingCalls(loop: loop)
        let cancelled = Flag()
        var answers: [Result<JSONValue, ServiceError>] = []
        calls.start({
            // Answers only when cancelled.
            while !Task.isCancelled { await Task.yield() }
            cancelled.set()
            return "too late"
        }, name: "test.never", timeout: 0.001) { { answers.append($0) } }
        loop.run(untilIdle: true)
        XCTAssertEqual(answers.count, 1)
        guard case .failure(let error) = answers.first else { return XCTFail("\(answers)") }
        XCTAssertEqual(error.code, .timeout)
        XCTAssertEqual(error.message, "test.never did not answer within 1 ms")
        // The cancelled job's late answer is posted, and dropped (a generous bound, only
        // against a hang).
        let deadline = Date().addingTimeInterval(10)
        while !cancelled.isSet && Date() < deadline { usleep(1000) }
        XCTAssertTrue(cancelled.isSet)
        loop.schedule(after: 0.01) {}
        loop.run(untilIdle: true)
        XCTAssertEqual(answers.count, 1)
    }

    func testCancelAllEndsTheWorkWithoutSettling() {
        let loop = EventLoop()
        let calls = PendingCalls(loop: loop)
        let ended = Flag()
        calls.start({
            while !Task.isCancelled { await Task.yield() }
            ended.set()
            return "cancelled"
        }, name: "test.never", timeout: 60) { { _ in XCTFail("a dropped call never settles") } }
        calls.cancelAll()
        XCTAssertEqual(calls.count, 0)
        // The job waited, so it goes on off the loop: it ends, cancelled, and still posts its
        // answer, which is dropped (a generous bound, only against a hang).
        let deadline = Date().addingTimeInterval(10)
        while !ended.isSet && Date() < deadline { usleep(1000) }
        XCTAssertTrue(ended.isSet)
        repeat { loop.run(untilIdle: true) } while loop.hasPendingWork && Date() < deadline
        XCTAssertFalse(loop.hasPendingWork, "no work counted, no timeout left")
    }

    /// A job starts on the calling thread (the loop's, where scripts call) and, once it has
    /// waited, goes on off the loop, which is left free; its answer is settled on the loop.
    func testAJobStartsOnTheLoopThreadAndGoesOnOffItAfterWaiting() {
        let loop = EventLoop()
        let calls = PendingCalls(loop: loop)
        let onLoop = Marks()
        let answer = Marks()
        loop.post {
            calls.start({
                onLoop.add(loop.isLoopThread)
                try await Task.sleep(nanoseconds: 1_000_000)
                onLoop.add(loop.isLoopThread)
                return "back"
            }, name: "test.sleeper", timeout: 60) { { answer.add(loop.isLoopThread && (try? $0.get()) == .string("back")) } }
        }
        loop.run(untilIdle: true)
        XCTAssertEqual(onLoop.all, [true, false], "before and after the await")
        XCTAssertEqual(answer.all, [true], "settled once, on the loop, with its answer")
    }

    private struct CocoaLikeError: Error, CustomStringConvertible {
        var description: String { "odd" }
    }

    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    private final class Marks: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Bool] = []
        var all: [Bool] { lock.withLock { values } }
        func add(_ value: Bool) { lock.withLock { values.append(value) } }
    }
}

final class ScriptLocatorTests: XCTestCase {
    func testOnlyWrappedModulesHaveTheirFirstLineUnshifted() {
        let locator = ScriptLocator()
        let header = ScriptLocator.moduleHeader.count
        XCTAssertEqual(locator.wrap("x();", path: "lib/a.js"), ScriptLocator.moduleHeader + "x();\n})")
        XCTAssertEqual(locator.unwrap("f@lib/a.js:1:\(header + 3)"), "f@lib/a.js:1:3")
        XCTAssertEqual(locator.unwrap("lib/a.js:2:\(header + 3)"), "lib/a.js:2:\(header + 3)", "other lines keep their columns")
        XCTAssertEqual(locator.unwrap("snippet.js:1:\(header + 3)"), "snippet.js:1:\(header + 3)", "not a module")
    }

    func testTheBridgesFramesAreDroppedAndAnErrorInThemIsPlacedAtTheCaller() {
        let locator = ScriptLocator()
        let error = ScriptError(message: "boom", location: "hybrid:prelude:10:5",
                                stack: ["callService@hybrid:prelude:10:5", "call@[native code]", "main@/app/main.js:3:7"])
        let cleaned = locator.clean(error, fallback: "fallback.js")
        XCTAssertEqual(cleaned.location, "/app/main.js:3:7")
        XCTAssertEqual(cleaned.stack, ["main@/app/main.js:3:7"])
        XCTAssertEqual(locator.clean(ScriptError(message: "x", location: nil, stack: []), fallback: "fallback.js").location, "fallback.js")
        XCTAssertEqual(locator.caller(in: "serviceError@hybrid:prelude:14:3\nrun@hybrid:prelude/patches:9:1\nf@/a@b/main.js:2:4"), "/a@b/main.js:2:4")
        XCTAssertNil(locator.caller(in: "f@hybrid:prelude:1:1"))
    }
}

final class ScriptEntriesTests: XCTestCase {
    private func makeEntries(timeLimit: Double = 1) -> (ScriptEntries, Box) {
        let box = Box()
        let entries = ScriptEntries(context: JavaScriptContext(), timeLimit: timeLimit, console: { box.console.append("\($0): \($1)") },
                                    onError: { box.reports.append($0.description) })
        return (entries, box)
    }

    func testAFailureIsReportedOnceAndCountedAndAnAnnouncementIsNot() {
        let (entries, box) = makeEntries()
        let result = entries.enter("snippet.js") { (context) throws(ScriptError) in try context.evaluate("null.x", sourceURL: "snippet.js") }
        guard case .failure = result else { return XCTFail("the entry failed: \(result)") }
        XCTAssertEqual(box.reports.count, 1)
        XCTAssertTrue(box.reports[0].hasPrefix("snippet.js:1:5: TypeError"), box.reports[0])
        entries.announce("a hook was disabled")
        XCTAssertEqual(box.reports.last, "a hook was disabled")
        XCTAssertEqual(entries.failureCount, 1)
    }

    func testARunawayInANestedEntryIsReportedOnceUnderItsNameAndItsCulpritCharged() {
        let (entries, box) = makeEntries(timeLimit: 0.1)
        var charged = 0
        entries.findRunaway = {
            ScriptEntries.Runaway(culprit: "a patch hook on method:X") {
                XCTAssertEqual(box.reports.count, 1, "charged after the report")
                charged += 1
            }
        }
        entries.context.globalObject.define("nested") { _ in
            entries.enter("the inner call") { (context) throws(ScriptError) in try context.evaluate("while (true) {}") }
            return nil
        }
        entries.enter("the outer call") { (context) throws(ScriptError) in try context.evaluate("nested(); 'unreachable'") }
        XCTAssertEqual(box.reports, ["<eval>:1:1: stopped: a patch hook on method:X (in the inner call) ran longer than the 0.1 s limit (a runaway script?)"])
        XCTAssertEqual(charged, 1)
        XCTAssertEqual(entries.failureCount, 1)
        XCTAssertEqual(try entries.enter("after") { (context) throws(ScriptError) in try context.evaluate("6 * 7").json }.get(), .integer(42))
    }

    private final class Box {
        var console: [String] = []
        var reports: [String] = []
    }
}

final class PatchHooksTests: XCTestCase {
    func testTheTableKnowsWhichTargetsAndMethodsHaveALiveHook() {
        let entries = ScriptEntries(context: JavaScriptContext(), timeLimit: 1, console: { _, _ in }, onError: { _ in })
        let hooks = PatchHooks(entries: entries, services: ServiceRegistry())
        hooks.setHooked("method:Cart.total", live: true)
        hooks.setHooked("service:cart.add", live: true)
        XCTAssertTrue(hooks.hasHooks(on: "method:Cart.total"))
        XCTAssertTrue(hooks.hasHooks(onMethod: "Cart.total"))
        XCTAssertTrue(hooks.hasHooks(on: "service:cart.add"))
        XCTAssertFalse(hooks.hasHooks(onMethod: "cart.add"), "a service is no method")
        hooks.setHooked("method:Cart.total", live: false)
        XCTAssertFalse(hooks.hasHooks(onMethod: "Cart.total"))
        hooks.shutdown()
        XCTAssertFalse(hooks.hasHooks(on: "service:cart.add"))
    }

    func testWithoutTheTableACallRunsTheSwiftBody() throws {
        let entries = ScriptEntries(context: JavaScriptContext(), timeLimit: 1, console: { _, _ in }, onError: { _ in })
        let hooks = PatchHooks(entries: entries, services: ServiceRegistry())
        hooks.setHooked("method:Math.double", live: true)
        XCTAssertEqual(hooks.callPatchable("Math.double", 21, .single) { (n: Int) in n * 2 }, 42)
    }
}

/// The bridge's JavaScript: embedded as written, and reaching Swift through the declared natives only.
final class BridgeScriptTests: XCTestCase {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/HybridBridge/JavaScript").standardizedFileURL

    func testEveryFileIsEmbeddedAsWritten() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".js") }.sorted()
        XCTAssertEqual(files, BridgeScript.allCases.map { $0.rawValue + ".js" }.sorted())
        for script in BridgeScript.allCases {
            let written = try Data(contentsOf: Self.folder.appendingPathComponent(script.rawValue + ".js"))
            XCTAssertEqual(Array(script.source.utf8), Array(written), "\(script.rawValue): byte for byte")
        }
    }

    func testTheScriptsCallExactlyTheDeclaredNatives() throws {
        let bridge = Set(BridgeScript.allCases.filter { $0 != .ui }.flatMap(\.source.nativeNames))
        XCTAssertEqual(bridge, Set(Native.allCases.map(\.rawValue)), "every bridge script but ui.js against Native")
        XCTAssertEqual(Set(BridgeScript.ui.source.nativeNames), Set(UINative.allCases.map(\.rawValue)), "ui.js against UINative")
    }
}

private extension String {
    /// The `NAME` of every `native.NAME` in the text.
    var nativeNames: [String] {
        let expression = try! NSRegularExpression(pattern: #"\bnative\.([A-Za-z_$][A-Za-z0-9_$]*)"#)
        return expression.matches(in: self, range: NSRange(startIndex..., in: self)).compactMap { match in
            Range(match.range(at: 1), in: self).map { String(self[$0]) }
        }
    }
}

/// What `require` may load: relative paths that stay inside the main script's folder however
/// they are written, and never a file outside it, nor one a symbolic link inside leads out to.
final class ModuleResolverTests: XCTestCase {
    func testPathsAreJudgedByWhereTheyLead() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("exports.a = 1;".utf8).write(to: root.appendingPathComponent("a.js"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("outside.js"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("sub/link.js"), withDestinationURL: base.appendingPathComponent("outside.js"))
        let resolver = ModuleResolver(root: root.path)
        let cases: [(specifier: String, from: String, loads: String?)] = [
            ("./a", root.path, "a.js"),
            (".//a.js", root.path, "a.js"),
            ("./sub/../a", root.path, "a.js"),
            ("../a", root.appendingPathComponent("sub").path, "a.js"),
            ("./../app/a", root.path, "a.js"),
            ("./a/", root.path, "a.js"),
            ("../outside", root.path, nil),
            ("./sub/../../outside", root.path, nil),
            ("../../outside", root.appendingPathComponent("sub").path, nil),
            ("./../../../../../../../../outside", root.path, nil),
            ("./sub/link", root.path, nil),
        ]
        for (specifier, folder, loads) in cases {
            let module = try? resolver.resolve(specifier, from: folder)
            XCTAssertEqual(module.map { URL(fileURLWithPath: $0.path).lastPathComponent }, loads, "\(specifier) from \(folder)")
            if loads != nil { XCTAssertEqual(module?.source, "exports.a = 1;", specifier) }
        }
    }
}
