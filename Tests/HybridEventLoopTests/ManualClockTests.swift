import Foundation
@testable import HybridEventLoop
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// How a loop behaves on a manual clock: `advance(by:)` steps from deadline to deadline and
/// takes no wall time of its own, while work in flight on other threads is still waited for
/// in real time.
final class ManualClockTests: XCTestCase {
    func testAdvanceRunsDueTimersInOrderAtTheirDeadlines() {
        let (loop, clock) = manualLoop()
        let record = Record()
        for delay in [30, 10, 20, 0] as [UInt64] {
            loop.schedule(after: Double(delay) / 1000) { record.times.append(clock.nanoseconds) }
        }
        loop.advance(by: 0.025)
        XCTAssertEqual(record.times, [0, ms(10), ms(20)])
        XCTAssertEqual(clock.nanoseconds, ms(25), "the clock ends at the window's end")
        // A timer due exactly at the end of a window runs in it.
        loop.advance(by: 0.005)
        XCTAssertEqual(record.times, [0, ms(10), ms(20), ms(30)])
    }

    /// The marquee's rhythm: a 120 ms interval over a `wait:1s` and a `wait:200ms`, at once.
    func testARepeatingTimerKeepsItsRhythmWithoutWallTime() {
        let (loop, clock) = manualLoop()
        let record = Record()
        loop.schedule(after: 0.12, repeating: true) { record.times.append(clock.nanoseconds) }
        let start = LoopClock.systemNow()
        loop.advance(by: 1)
        XCTAssertEqual(record.times, (1...8).map { ms(120 * $0) })
        loop.advance(by: 0.2)
        XCTAssertEqual(record.times, (1...10).map { ms(120 * $0) })
        XCTAssertLessThan(LoopClock.systemNow() - start, ms(500), "virtual time takes no wall time")
    }

    func testATimerScheduledByATimerWithinTheWindowRuns() {
        let (loop, clock) = manualLoop()
        let record = Record()
        loop.schedule(after: 0.1) {
            record.times.append(clock.nanoseconds)
            loop.schedule(after: 0.05) { record.times.append(clock.nanoseconds) }
            loop.schedule(after: 0.2) { record.times.append(clock.nanoseconds) }
        }
        loop.advance(by: 0.25)
        XCTAssertEqual(record.times, [ms(100), ms(150)])
        loop.advance(by: 0.05)
        XCTAssertEqual(record.times, [ms(100), ms(150), ms(300)])
    }

    /// A job a timer queues runs at the timer's instant, so what it schedules counts from there.
    func testJobsQueuedByATimerRunBeforeTimeMovesOn() {
        let (loop, clock) = manualLoop()
        let record = Record()
        @Sendable func note(_ event: String) { record.events.append("\(event) at \(clock.nanoseconds / 1_000_000)") }
        loop.schedule(after: 0.01) {
            note("timer")
            loop.post {
                note("job")
                loop.schedule(after: 0.005) { note("from job") }
            }
        }
        loop.schedule(after: 0.02) { note("later timer") }
        loop.advance(by: 0.1)
        XCTAssertEqual(record.events, ["timer at 10", "job at 10", "from job at 15", "later timer at 20"])
    }

    func testRunUntilIdleDoesNotWaitForTimersNotYetDue() {
        let (loop, clock) = manualLoop()
        let record = Record()
        loop.schedule(after: 60) { record.events.append("in a minute") }
        loop.schedule(after: 0) { record.events.append("now") }
        XCTAssertTrue(loop.hasPendingWork)
        let start = LoopClock.systemNow()
        loop.run(untilIdle: true)
        XCTAssertLessThan(LoopClock.systemNow() - start, ms(1000))
        XCTAssertEqual(record.events, ["now"])
        XCTAssertFalse(loop.hasPendingWork, "a timer not yet due is not pending on a manual clock")
        // Moving the clock by itself runs nothing; the next turn runs what came due.
        clock.advance(by: 60)
        XCTAssertEqual(record.events, ["now"])
        XCTAssertTrue(loop.hasPendingWork)
        loop.run(untilIdle: true)
        XCTAssertEqual(record.events, ["now", "in a minute"])
    }

    /// `run()` never sleeps towards a timer on a manual clock, but a post still wakes it.
    func testAPostFromAnotherThreadWakesRun() {
        let (loop, _) = manualLoop()
        let record = Record()
        loop.schedule(after: 60) { record.events.append("not due") }
        Thread.detachNewThread {
            usleep(50_000)
            loop.post {
                record.events.append("posted")
                loop.stop()
            }
        }
        loop.run()
        XCTAssertEqual(record.events, ["posted"])
    }

    /// Work in flight is waited for in real time, not skipped by jumping to the next deadline.
    func testJobsPostedFromAnotherThreadAreWaitedForWhileTimeAdvances() {
        let (loop, clock) = manualLoop()
        let record = Record()
        loop.beginWork()
        loop.schedule(after: 3) { record.events.append("timer at 3 s") }
        Thread.detachNewThread {
            usleep(50_000)
            loop.post {
                record.events.append("posted")
                loop.endWork()
            }
        }
        let start = LoopClock.systemNow()
        loop.advance(by: 10)
        let elapsed = LoopClock.systemNow() - start
        XCTAssertEqual(record.events, ["posted", "timer at 3 s"])
        XCTAssertEqual(clock.nanoseconds, 10_000_000_000)
        XCTAssertGreaterThanOrEqual(elapsed, ms(40), "the post was waited for")
        XCTAssertLessThan(elapsed, ms(3000), "once nothing was in flight, time moved on at once")
    }

    /// A timeout that bounds work in flight fires after as long as it would in real time: the
    /// clock follows real time while work is in flight.
    func testATimeoutStillBoundsWorkInFlight() {
        let (loop, clock) = manualLoop()
        let record = Record()
        loop.beginWork() // a call that never answers
        loop.schedule(after: 0.05) {
            record.times.append(clock.nanoseconds)
            loop.endWork()
        }
        let start = LoopClock.systemNow()
        loop.advance(by: 1)
        let elapsed = LoopClock.systemNow() - start
        XCTAssertEqual(record.times, [ms(50)])
        XCTAssertEqual(clock.nanoseconds, ms(1000))
        XCTAssertGreaterThanOrEqual(elapsed, ms(40))
        XCTAssertLessThan(elapsed, ms(900))
    }

    /// A timer that reschedules itself with no delay cannot hold virtual time still: after
    /// `turnsPerInstant` turns at one instant, time moves on by `stallStep`.
    func testAZeroDelayChainDoesNotHoldTimeStill() {
        let (loop, clock) = manualLoop()
        let record = Record()
        func again() {
            record.times.append(clock.nanoseconds)
            loop.schedule(after: 0, again)
        }
        loop.schedule(after: 0, again)
        loop.advance(by: 0.002)
        XCTAssertEqual(clock.nanoseconds, ms(2))
        let perInstant = EventLoop.turnsPerInstant
        XCTAssertEqual(record.times.count, 2 * perInstant + 1)
        XCTAssertEqual(record.times[perInstant - 1], 0)
        XCTAssertEqual(record.times[perInstant], EventLoop.stallStep)
    }

    func testStopEndsAdvanceEarly() {
        let (loop, clock) = manualLoop()
        let record = Record()
        loop.schedule(after: 0.1) {
            record.events.append("stop")
            loop.stop()
        }
        loop.schedule(after: 0.2) { record.events.append("later") }
        loop.advance(by: 1)
        XCTAssertEqual(record.events, ["stop"])
        XCTAssertEqual(clock.nanoseconds, ms(100))
        // The stop was used up.
        loop.advance(by: 1)
        XCTAssertEqual(record.events, ["stop", "later"])
    }

    func testAdvanceOnTheSystemClockLetsRealTimePass() {
        let loop = EventLoop()
        let record = Record()
        loop.schedule(after: 0.01) { record.events.append("10 ms") }
        let start = LoopClock.systemNow()
        loop.advance(by: 0.05)
        XCTAssertGreaterThanOrEqual(LoopClock.systemNow() - start, ms(50))
        XCTAssertEqual(record.events, ["10 ms"])
    }
}
