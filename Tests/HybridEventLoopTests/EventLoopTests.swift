import Foundation
@testable import HybridEventLoop
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Written on the loop thread (or after it stopped) and read after `run` returns.
final class Record: @unchecked Sendable {
    var events: [String] = []
    var times: [UInt64] = []
}

/// A loop on a manual clock, and the clock to read and move.
func manualLoop() -> (EventLoop, ManualClock) {
    let clock = ManualClock()
    return (EventLoop(clock: .manual(clock)), clock)
}

/// Milliseconds as the nanoseconds a clock reads.
func ms(_ milliseconds: UInt64) -> UInt64 {
    milliseconds * 1_000_000
}

/// The loop's basics: ordering, cancelling, rhythm, threads. Timing is checked on a manual
/// clock; the system clock keeps a smoke test of each thing only it can show (sleeping in
/// `poll`, being woken from another thread).
final class EventLoopTests: XCTestCase {
    /// A timer that ends a test that would otherwise hang forever.
    @discardableResult
    func failsafe(_ loop: EventLoop, after seconds: Double = 5, _ message: String) -> EventLoop.TimerID {
        loop.schedule(after: seconds) {
            XCTFail(message)
            loop.stop()
        }
    }

    /// The same order on both clocks: real time with `run(untilIdle:)`, virtual time with `advance`.
    func testTimersRunInDeadlineOrderAndEqualDeadlinesInSchedulingOrder() {
        for manual in [false, true] {
            let clock = ManualClock()
            let loop = EventLoop(clock: manual ? .manual(clock) : .system)
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
            if manual { loop.advance(by: 1) } else { loop.run(untilIdle: true) }
            XCTAssertEqual(record.events, ["0 a", "0 b", "negative", "0 c", "from 0 c", "10 ms", "30 ms"], "manual clock: \(manual)")
        }
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
        let start = LoopClock.systemNow()
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["first"])
        XCTAssertLessThan(LoopClock.systemNow() - start, 1_000_000_000)
    }

    func testARepeatingTimerCancelsItselfFromItsBody() {
        let (loop, clock) = manualLoop()
        let record = Record()
        var id: EventLoop.TimerID?
        id = loop.schedule(after: 0.001, repeating: true) {
            record.times.append(clock.nanoseconds)
            if record.times.count == 3 { loop.cancel(id!) }
        }
        loop.advance(by: 1)
        XCTAssertEqual(record.times, [ms(1), ms(2), ms(3)])
        XCTAssertFalse(loop.hasPendingWork)
    }

    /// A repeating timer made late by a busy loop, or by its own slow body, runs once and then
    /// waits a whole interval: it never fires twice back to back to catch up. Moving the
    /// manual clock at once from inside a job is how a test plays a job that takes 90 ms.
    func testALateRepeatingTimerDoesNotBurst() {
        for slowBody in [false, true] {
            let (loop, clock) = manualLoop()
            let record = Record()
            var id: EventLoop.TimerID?
            id = loop.schedule(after: 0.02, repeating: true) {
                record.times.append(clock.nanoseconds)
                if slowBody && record.times.count == 1 { clock.advance(by: 0.09) }
                if record.times.count == 4 { loop.cancel(id!) }
            }
            // Keeps the loop busy past several deadlines of the timer.
            if !slowBody { loop.post { clock.advance(by: 0.09) } }
            loop.advance(by: 1)
            // Busy until 90 ms: one late run at 90, then every 20 ms from there. A slow first
            // run (20 → 110 ms): the next comes a whole interval after it ended.
            XCTAssertEqual(record.times, slowBody ? [ms(20), ms(130), ms(150), ms(170)] : [ms(90), ms(110), ms(130), ms(150)],
                           "slow body: \(slowBody)")
        }
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
        XCTAssertEqual(LoopClock.nanoseconds(in: 1e300), .max)
        XCTAssertEqual(LoopClock.nanoseconds(in: .nan), 0)

        let (loop, clock) = manualLoop()
        let record = Record()
        func note(_ event: String) {
            record.events.append(event)
            record.times.append(clock.nanoseconds)
        }
        loop.schedule(after: .infinity) { note("infinity") }
        loop.schedule(after: 1e300, repeating: true) { note("huge") }
        loop.schedule(after: .nan) { note("nan") }
        loop.schedule(after: .greatestFiniteMagnitude, keepsAlive: false) { note("max") }
        loop.advance(by: 2_147_483)
        XCTAssertEqual(record.events, ["nan"])
        loop.advance(by: 1)
        // All three wait exactly the longest delay, no more.
        XCTAssertEqual(record.events, ["nan", "infinity", "huge", "max"])
        XCTAssertEqual(record.times, [0] + Array(repeating: 2_147_483_647_000_000, count: 3))
    }

    /// A job the loop thread posts itself writes nothing to the wake-up pipe; the loop still
    /// runs it before it sleeps.
    func testAJobPostedOnTheLoopThreadRunsWithoutSleepingFirst() {
        let loop = EventLoop()
        let record = Record()
        let guardTimer = failsafe(loop, "the loop slept with a job queued")
        // Posted from a timer, on the loop thread: no byte in the pipe for it (a post made
        // before `run` would leave one).
        loop.schedule(after: 0) {
            loop.post {
                record.events.append("posted on the loop")
                loop.stop()
            }
        }
        // Nothing else due for 5 s.
        loop.run()
        loop.cancel(guardTimer)
        XCTAssertEqual(record.events, ["posted on the loop"])
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

    /// A chain of jobs that never ends (each posts the next) cannot keep input waiting: the
    /// descriptors are looked at within `turnsBetweenLooks` turns.
    func testAChainOfJobsDoesNotKeepAWatchedDescriptorWaiting() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { fds.forEach { close($0) } }
        XCTAssertEqual(write(fds[1], "x", 1), 1)
        let loop = EventLoop()
        let record = Record()
        let guardTimer = failsafe(loop, "the watcher was not called")
        let chain = Chain(loop)
        loop.watch(fds[0]) {
            record.events.append("input after \(chain.links) links")
            loop.unwatch(fds[0])
            loop.stop()
        }
        loop.post { chain.link() }
        loop.run()
        loop.cancel(guardTimer)
        XCTAssertEqual(record.events.count, 1)
        XCTAssertLessThanOrEqual(chain.links, EventLoop.turnsBetweenLooks + 1, "\(record.events)")
    }

    /// Jobs that each post the next, for ever; touched on the loop thread only.
    private final class Chain: @unchecked Sendable {
        let loop: EventLoop
        var links = 0

        init(_ loop: EventLoop) {
            self.loop = loop
        }

        func link() {
            links += 1
            loop.post { self.link() }
        }
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
        let start = LoopClock.systemNow()
        Thread.detachNewThread {
            usleep(100_000)
            loop.post {
                record.events.append("done")
                loop.endWork()
            }
        }
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["done"])
        XCTAssertGreaterThanOrEqual(LoopClock.systemNow() - start, 90_000_000)
        XCTAssertFalse(loop.hasPendingWork)
    }

    func testAStopBeforeRunIsNotLost() {
        let loop = EventLoop()
        loop.stop()
        let guardTimer = failsafe(loop, after: 2, "run() ignored a stop() made before it started")
        let start = LoopClock.systemNow()
        loop.run()
        XCTAssertLessThan(LoopClock.systemNow() - start, 1_000_000_000)
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
        for manual in [false, true] {
            let loop = EventLoop(clock: manual ? .manual(ManualClock()) : .system)
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
            // `advance` makes its thread the loop thread just as `run` does.
            if manual { loop.advance(by: 0) } else { loop.run(untilIdle: true) }
            XCTAssertEqual(record.events, ["on loop: true", "other thread: false"], "manual clock: \(manual)")
            XCTAssertFalse(loop.isLoopThread)
        }
    }
}
