import Foundation
@testable import HybridEventLoop
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Written on the loop thread (or after it stopped) and read after `run` returns.
private final class Record: @unchecked Sendable {
    var events: [String] = []
    var times: [UInt64] = []
}

final class EventLoopTests: XCTestCase {
    /// A timer that ends a test that would otherwise hang forever.
    @discardableResult
    func failsafe(_ loop: EventLoop, after seconds: Double = 5, _ message: String) -> EventLoop.TimerID {
        loop.schedule(after: seconds) {
            XCTFail(message)
            loop.stop()
        }
    }

    func testTimersRunInDeadlineOrderAndEqualDeadlinesInSchedulingOrder() {
        let loop = EventLoop()
        let record = Record()
        loop.schedule(after: 0.03) { record.events.append("30 ms") }
        loop.schedule(after: 0.01) { record.events.append("10 ms") }
        loop.schedule(after: 0) { record.events.append("0 a") }
        loop.schedule(after: 0) { record.events.append("0 b") }
        loop.schedule(after: -1) { record.events.append("negative") }
        loop.schedule(after: 0) {
            record.events.append("0 c")
            // Scheduled by a timer: waits for the next turn, after the ones already due.
            loop.schedule(after: 0) { record.events.append("from 0 c") }
        }
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["0 a", "0 b", "negative", "0 c", "from 0 c", "10 ms", "30 ms"])
    }

    func testCancelledTimersDoNotRunAndDoNotKeepTheLoopAlive() {
        let loop = EventLoop()
        let record = Record()
        let never = loop.schedule(after: 0.01) { record.events.append("cancelled") }
        let later = loop.schedule(after: 60) { record.events.append("later") }
        loop.schedule(after: 0) {
            record.events.append("first")
            loop.cancel(later)
        }
        loop.cancel(never)
        loop.cancel(never) // twice does nothing
        let start = EventLoop.now()
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["first"])
        XCTAssertLessThan(EventLoop.now() - start, 1_000_000_000)
    }

    func testARepeatingTimerCancelsItselfFromItsBody() {
        let loop = EventLoop()
        let record = Record()
        var id: EventLoop.TimerID?
        id = loop.schedule(after: 0.001, repeating: true) {
            record.events.append("tick")
            if record.events.count == 3 { loop.cancel(id!) }
        }
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["tick", "tick", "tick"])
    }

    /// A repeating timer made late by a busy loop, or by its own slow body, runs once and then
    /// waits a whole interval: it never fires twice back to back to catch up.
    func testALateRepeatingTimerDoesNotBurst() {
        for slowBody in [false, true] {
            let loop = EventLoop()
            let record = Record()
            var id: EventLoop.TimerID?
            id = loop.schedule(after: 0.02, repeating: true) {
                record.times.append(EventLoop.now())
                if slowBody && record.times.count == 1 { usleep(90_000) }
                if record.times.count == 4 { loop.cancel(id!) }
            }
            // Keeps the loop busy past several deadlines of the timer.
            if !slowBody { loop.post { usleep(90_000) } }
            loop.run(untilIdle: true)
            XCTAssertEqual(record.times.count, 4)
            for (previous, next) in zip(record.times, record.times.dropFirst()) {
                XCTAssertGreaterThanOrEqual(next - previous, 15_000_000, "slow body: \(slowBody), gaps: \(gaps(record.times))")
            }
        }
    }

    func gaps(_ times: [UInt64]) -> [UInt64] {
        zip(times, times.dropFirst()).map { ($1 - $0) / 1_000_000 }
    }

    /// `setTimeout(f, Infinity)` and friends: no delay traps, long ones wait the longest delay.
    func testHugeInfiniteAndNaNDelaysAreClamped() {
        XCTAssertEqual(EventLoop.nanoseconds(forDelay: .infinity), 2_147_483_647_000_000)
        XCTAssertEqual(EventLoop.nanoseconds(forDelay: 1e300), 2_147_483_647_000_000)
        XCTAssertEqual(EventLoop.nanoseconds(forDelay: Double(UInt64.max)), 2_147_483_647_000_000)
        XCTAssertEqual(EventLoop.nanoseconds(forDelay: .nan), 0)
        XCTAssertEqual(EventLoop.nanoseconds(forDelay: -.infinity), 0)
        XCTAssertEqual(EventLoop.nanoseconds(forDelay: 0.25), 250_000_000)
        XCTAssertEqual(EventLoop.saturatingAdd(.max - 1, 5), .max)

        let loop = EventLoop()
        let record = Record()
        let forever = loop.schedule(after: .infinity) { record.events.append("infinity") }
        let huge = loop.schedule(after: 1e300, repeating: true) { record.events.append("huge") }
        loop.schedule(after: .nan) { record.events.append("nan") }
        loop.schedule(after: .greatestFiniteMagnitude, keepsAlive: false) { record.events.append("max") }
        loop.schedule(after: 0.02) {
            loop.cancel(forever)
            loop.cancel(huge)
        }
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["nan"])
    }

    func testPostingFromAnotherThreadWakesTheLoop() {
        let loop = EventLoop()
        let record = Record()
        let guardTimer = failsafe(loop, "the posted job did not wake the loop")
        Thread.detachNewThread {
            usleep(50_000)
            loop.post {
                record.events.append("posted")
                XCTAssertTrue(loop.isLoopThread)
                loop.stop()
            }
        }
        // Nothing due for 5 s: the loop sleeps in poll until the post wakes it.
        loop.run()
        loop.cancel(guardTimer)
        XCTAssertEqual(record.events, ["posted"])
    }

    func testAWatchedPipeCallsBack() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { fds.forEach { close($0) } }
        let loop = EventLoop()
        let record = Record()
        let guardTimer = failsafe(loop, "the watcher was not called")
        loop.watch(fds[0]) {
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = read(fds[0], &buffer, buffer.count)
            record.events.append(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self))
            loop.unwatch(fds[0])
            loop.stop()
        }
        let writer = fds[1]
        Thread.detachNewThread {
            usleep(30_000)
            _ = write(writer, "hi", 2)
        }
        loop.run()
        loop.cancel(guardTimer)
        XCTAssertEqual(record.events, ["hi"])
    }

    func testWorkInFlightKeepsRunUntilIdleGoing() {
        let loop = EventLoop()
        let record = Record()
        loop.beginWork()
        XCTAssertTrue(loop.hasPendingWork)
        let start = EventLoop.now()
        Thread.detachNewThread {
            usleep(100_000)
            loop.post {
                record.events.append("done")
                loop.endWork()
            }
        }
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["done"])
        XCTAssertGreaterThanOrEqual(EventLoop.now() - start, 90_000_000)
        XCTAssertFalse(loop.hasPendingWork)
    }

    func testAStopBeforeRunIsNotLost() {
        let loop = EventLoop()
        loop.stop()
        let guardTimer = failsafe(loop, after: 2, "run() ignored a stop() made before it started")
        let start = EventLoop.now()
        loop.run()
        XCTAssertLessThan(EventLoop.now() - start, 1_000_000_000)
        // The stop was used up: the next run goes on until its own stop.
        let record = Record()
        loop.cancel(guardTimer)
        loop.schedule(after: 0.01) {
            record.events.append("second run")
            loop.stop()
        }
        loop.run()
        XCTAssertEqual(record.events, ["second run"])
    }

    func testTheLoopThreadIsKnownWhileRunning() {
        let loop = EventLoop()
        XCTAssertFalse(loop.isLoopThread)
        let record = Record()
        loop.schedule(after: 0) {
            record.events.append("on loop: \(loop.isLoopThread)")
            let group = DispatchGroup()
            group.enter()
            Thread.detachNewThread {
                record.events.append("other thread: \(loop.isLoopThread)")
                group.leave()
            }
            group.wait()
        }
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["on loop: true", "other thread: false"])
        XCTAssertFalse(loop.isLoopThread)
    }
}
