import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One thread's event loop: jobs posted from any thread, timers, and readable file
/// descriptors (terminal input), run one at a time in order.
///
/// JavaScript runs on this thread only, so scripts never interleave; async service results
/// come back as posted jobs, and the interactive runtime adds the terminal's input descriptor
/// and its frame timer to the same loop.
///
/// ## Threads
///
/// Safe from any thread: `post(_:)`, `stop()`, `isLoopThread` and `mayTouchLoopState()`.
///
/// Everything else (`schedule`, `cancel`, `watch`, `unwatch`, `beginWork`, `endWork`,
/// `hasPendingWork`, `advance(by:)`) belongs to the loop thread: the thread inside `run()` or
/// `advance(by:)`, or, before either starts, the thread that is going to call it (a host
/// schedules a script's first timers and then runs the loop). Debug builds check this while
/// the loop runs.
///
/// ## Time
///
/// Timers are deadlines on the loop's `clock`. On the system clock (the default) the loop
/// sleeps until the first one is due. On a `ManualClock` it never sleeps for a timer:
/// - a timer runs once the clock has reached its deadline, and only `advance(by:)` (or the
///   clock's own `advance(by:)`) moves the clock; `run()` never does;
/// - `run(untilIdle:)` counts only timers already due as pending, so it returns instead of
///   waiting for a deadline no one will move the clock to;
/// - work in flight elsewhere (`beginWork`/`endWork`) is still waited for in real time, never
///   by moving the clock (see `advance(by:)`), and a job posted from another thread wakes the
///   loop as always.
public final class EventLoop: @unchecked Sendable {
    /// Identifies a timer, to cancel it.
    public struct TimerID: Hashable, Sendable {
        let value: Int
    }

    /// The longest delay a timer waits, in seconds: 2³¹−1 ms (about 24.8 days), the largest
    /// delay browsers and Node accept.
    ///
    /// Longer delays (up to `Double.infinity`) are clamped to this; `NaN` and negative delays
    /// count as 0. Browsers and Node instead run an over-long timeout almost at once (the
    /// 32-bit delay overflows); here `setTimeout(f, Infinity)` waits as long as it can, which
    /// is what a script asking for it means.
    public static let maximumDelay = 2_147_483.647

    /// Where the loop reads the time; fixed for the loop's life.
    public let clock: LoopClock

    /// How many turns in a row `advance(by:)` runs at one instant of a manual clock before it
    /// moves time on by `stallStep` anyway. A timer that reschedules itself with no delay (or a
    /// job that keeps queueing jobs) would otherwise hold virtual time still for ever; in real
    /// time each turn costs a little time, so such a chain cannot stop a `wait:` from ending.
    static let turnsPerInstant = 1_000
    /// 1 ms: roughly what a thousand turns take in real time.
    static let stallStep: UInt64 = 1_000_000

    // Posted jobs, the stop flag and the running thread cross threads, under `lock`;
    // everything else is touched on the loop thread only.
    private let lock = NSLock()
    private var posted: [@Sendable () -> Void] = []
    private var stopRequested = false
    private var runningThread: pthread_t?
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private var timers = TimerQueue()
    private var nextTimer = 1
    private var watchers: [Int32: () -> Void] = [:]
    private var pendingWork = 0
    /// The repeating timer whose body is running, and whether that body cancelled it.
    private var firing: (id: TimerID, cancelled: Bool)?
    /// Turns in a row that ended with jobs queued, since the descriptors were last looked at.
    private var busyTurns = 0
    /// At most this many turns with jobs queued pass between two looks at the descriptors
    /// (terminal input, the wake-up pipe), so a chain of jobs cannot keep input waiting.
    static let turnsBetweenLooks = 16

    /// A loop with nothing to do yet, reading the time from `clock` (the system's monotonic
    /// clock unless told otherwise).
    public init(clock: LoopClock = .system) {
        self.clock = clock
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "cannot create the event loop's wake-up pipe")
        wakeRead = fds[0]
        wakeWrite = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            // Not inherited by programs a service starts.
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        }
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    // MARK: From any thread

    /// Runs `job` on the loop thread, after what is already queued. Safe from any thread.
    public func post(_ job: @escaping @Sendable () -> Void) {
        let onLoopThread = lock.withLock { () -> Bool in
            posted.append(job)
            return runningThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        // The loop thread is not asleep: it looks at the queue before it sleeps again
        // (`waitForEvents`), so only other threads need the pipe, a write and a read saved per
        // job the loop posts itself (an async service's task on its executor).
        if !onLoopThread { wake() }
    }

    /// Makes `run` (or `advance(by:)`) return after the current job. Safe from any thread; a
    /// `stop()` made before `run()` starts makes that `run()` return after its first turn.
    public func stop() {
        lock.withLock { stopRequested = true }
        wake()
    }

    /// Whether the calling thread is the one inside `run()` or `advance(by:)` now. Safe from
    /// any thread.
    public var isLoopThread: Bool {
        lock.withLock { runningThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Whether the calling thread may touch the loop-thread state (the loop's, and that of
    /// objects living on the loop): the loop is not running (its future thread sets it up), or
    /// it runs on this thread. Safe from any thread; the loop's own methods ask only inside
    /// `assert`, so release builds pay nothing there.
    public func mayTouchLoopState() -> Bool {
        lock.withLock { runningThread.map { pthread_equal($0, pthread_self()) != 0 } ?? true }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    // MARK: On the loop thread

    /// Runs `body` after `seconds` (and again every `seconds` when `repeating`). A timer with
    /// `keepsAlive` false (a UI clock) does not keep `run(untilIdle:)` going.
    ///
    /// Any delay is accepted: it is clamped to `0...maximumDelay` (`NaN` counts as 0). A
    /// repeating timer waits at least 1 ms between runs. Loop thread only.
    @discardableResult
    public func schedule(after seconds: Double, repeating: Bool = false, keepsAlive: Bool = true, _ body: @escaping () -> Void) -> TimerID {
        assert(mayTouchLoopState(), "EventLoop.schedule called off the loop thread while the loop runs")
        let interval = Self.nanoseconds(forDelay: seconds)
        let id = TimerID(value: nextTimer)
        nextTimer += 1
        let timer = TimerQueue.Timer(id: id, deadline: Self.saturatingAdd(clock.now, interval), interval: repeating ? max(interval, 1_000_000) : nil,
                                     body: body, keepsAlive: keepsAlive)
        timers.insert(timer)
        return id
    }

    /// Cancels a timer; cancelling one that already ran does nothing. A repeating timer may
    /// cancel itself from its own body. Loop thread only.
    public func cancel(_ id: TimerID) {
        assert(mayTouchLoopState(), "EventLoop.cancel called off the loop thread while the loop runs")
        if firing?.id == id { firing?.cancelled = true }
        timers.remove(id)
    }

    /// Calls `onReadable` whenever `descriptor` has input (until `unwatch`). Loop thread only.
    public func watch(_ descriptor: Int32, _ onReadable: @escaping () -> Void) {
        assert(mayTouchLoopState(), "EventLoop.watch called off the loop thread while the loop runs")
        watchers[descriptor] = onReadable
    }

    /// Stops watching `descriptor`. Loop thread only.
    public func unwatch(_ descriptor: Int32) {
        assert(mayTouchLoopState(), "EventLoop.unwatch called off the loop thread while the loop runs")
        watchers[descriptor] = nil
    }

    /// Marks work in flight elsewhere (an async service call) that will post back; while any
    /// is in flight, `run(untilIdle:)` keeps waiting. Loop thread only.
    public func beginWork() {
        assert(mayTouchLoopState(), "EventLoop.beginWork called off the loop thread while the loop runs")
        pendingWork += 1
    }

    /// Marks one piece of work begun with `beginWork` as finished. Loop thread only.
    ///
    /// Every `endWork` must match an earlier `beginWork`: an unmatched one is a bug in the
    /// caller (it would let `run(untilIdle:)` return while work is still in flight), so it traps.
    public func endWork() {
        assert(mayTouchLoopState(), "EventLoop.endWork called off the loop thread while the loop runs")
        precondition(pendingWork > 0, "EventLoop.endWork without a matching beginWork")
        pendingWork -= 1
    }

    /// Whether work begun with `beginWork` is still in flight, or jobs are queued: what a
    /// headless run waits for after each key. Loop thread only.
    public var hasWorkInFlight: Bool {
        pendingWork > 0 || hasPosted
    }

    /// Whether anything is queued, scheduled (that keeps the loop alive) or in flight: what
    /// `run(untilIdle:)` waits for. On a manual clock only timers already due count, since only
    /// `advance(by:)` brings the others closer. Loop thread only.
    public var hasPendingWork: Bool {
        pendingWork > 0 || hasPosted || hasLiveTimer
    }

    private var hasPosted: Bool {
        lock.withLock { !posted.isEmpty }
    }

    private var hasLiveTimer: Bool {
        clock.isManual ? timers.keepsAlive(dueBy: clock.now) : timers.keepsAlive
    }

    /// Runs jobs, timers and watchers on the calling thread until `stop()`, or with
    /// `untilIdle` until nothing is pending (`hasPendingWork`). The calling thread is the loop
    /// thread until it returns. On a manual clock, time stands still meanwhile.
    public func run(untilIdle: Bool = false) {
        let outer = enter("run")
        defer { leave(restoring: outer) }
        while true {
            runTurn()
            if lock.withLock({ stopRequested }) { return }
            if untilIdle && !hasPendingWork { return }
            waitForEvents(timeout: sleepBeforeFirstTimer())
        }
    }

    /// Lets `seconds` pass with the loop running on the calling thread (the loop thread until
    /// it returns), then returns; a `stop()` makes it return early.
    ///
    /// On the system clock this runs the loop for `seconds` of real time. On a manual clock it
    /// takes no wall time of its own: it moves the clock forward to each timer's deadline in
    /// turn, running the timers due there in deadline order (equal deadlines in the order they
    /// were scheduled), and the jobs they queue before time moves on, so timers that schedule
    /// timers within the window run as they would in real time. Timers due at the window's end
    /// run; the clock then reads exactly `seconds` later than when it was called.
    ///
    /// Work in flight elsewhere (`beginWork`) is never skipped by moving time: while any is in
    /// flight, the loop waits for its post in real time and lets the clock follow real time,
    /// never past the next deadline. So a result that arrives after 10 ms still comes before a
    /// timer due in 500 ms, and a timer that bounds the work (a call's timeout, a boot's ready
    /// timeout) still fires after as long as it would in real time. `NaN` and negative amounts
    /// count as 0; `advance(by: 0)` runs one turn (queued jobs and due timers). Loop thread only.
    public func advance(by seconds: Double) {
        let outer = enter("advance(by:)")
        defer { leave(restoring: outer) }
        let end = Self.saturatingAdd(clock.now, LoopClock.nanoseconds(in: seconds))
        var stalledTurns = 0
        while true {
            runTurn()
            if lock.withLock({ stopRequested }) { return }
            let now = clock.now
            guard now < end else { return }
            // Time may move to the first deadline, or the window's end.
            let next = max(now, min(timers.first?.deadline ?? end, end))
            guard case .manual(let manual) = clock else {
                waitForEvents(timeout: next - now)
                continue
            }
            // Jobs already queued run at this instant, before time moves on.
            var target = hasPosted ? now : next
            if pendingWork > 0 && target > now {
                let started = LoopClock.systemNow()
                waitForEvents(timeout: target - now)
                target = min(Self.saturatingAdd(now, LoopClock.systemNow() - started), target)
            } else {
                waitForEvents(timeout: 0) // watchers and the wake-up pipe, without sleeping
            }
            if target > now {
                stalledTurns = 0
            } else {
                stalledTurns += 1
                if stalledTurns == Self.turnsPerInstant {
                    stalledTurns = 0
                    target = min(Self.saturatingAdd(now, Self.stallStep), end)
                }
            }
            manual.move(to: target)
        }
    }

    /// Makes the calling thread the loop thread (`run` and `advance` may nest on it) and
    /// returns the one it replaces.
    private func enter(_ caller: String) -> pthread_t? {
        lock.withLock { () -> pthread_t? in
            let outer = runningThread
            precondition(outer.map { pthread_equal($0, pthread_self()) != 0 } ?? true,
                         "EventLoop.\(caller) called on a second thread while the loop runs on another")
            runningThread = pthread_self()
            return outer
        }
    }

    /// Undoes `enter`. The stop flag is cleared when the loop returns, not when it starts, so a
    /// `stop()` that arrives before `run()` (from another thread, or a job queued first) is not lost.
    private func leave(restoring outer: pthread_t?) {
        lock.withLock {
            stopRequested = false
            runningThread = outer
        }
    }

    /// Queued jobs, then the timers that were due when the turn began.
    private func runTurn() {
        runPosted()
        runDueTimers()
    }

    private func runPosted() {
        let jobs = lock.withLock { () -> [@Sendable () -> Void] in
            defer { posted.removeAll(keepingCapacity: true) }
            return posted
        }
        for job in jobs { job() }
    }

    private func runDueTimers() {
        let now = clock.now
        // Only timers due now; ones they schedule (or that come round again) wait for the next
        // turn, even on a manual clock where a zero delay makes them due at once. They sort
        // after every timer due now, so the first one met ends the turn.
        let newest = nextTimer
        while let first = timers.first, first.deadline <= now, first.id.value < newest {
            let timer = timers.removeFirst()
            guard let interval = timer.interval else {
                timer.body()
                continue
            }
            firing = (timer.id, false)
            timer.body()
            let cancelled = firing?.cancelled ?? true
            firing = nil
            if cancelled { continue }
            // Keep the timer's rhythm when it is on time; when it is late (the loop was busy,
            // or its own body was slow) the missed runs are dropped and the next one comes a
            // whole interval from now, so a late interval never fires twice back to back.
            let after = clock.now
            var next = timer
            next.deadline = Self.saturatingAdd(timer.deadline, interval)
            if next.deadline <= after { next.deadline = Self.saturatingAdd(after, interval) }
            timers.insert(next)
        }
    }

    /// How long `run` may sleep before the first timer is due: `nil` for as long as nothing
    /// wakes it (no timer, or, on a manual clock, none due yet: sleeping will not bring it closer).
    private func sleepBeforeFirstTimer() -> UInt64? {
        guard let first = timers.first else { return nil }
        let now = clock.now
        if first.deadline <= now { return 0 }
        return clock.isManual ? nil : first.deadline - now
    }

    /// Sleeps in `poll` until a post, a stop, a watched descriptor, or `timeout` nanoseconds of
    /// real time (`nil`: no limit); does not sleep while jobs are queued.
    private func waitForEvents(timeout: UInt64?) {
        // Jobs the loop thread posted itself did not write to the pipe. While jobs keep coming
        // (a chain of async calls), looking at the descriptors every few turns is enough: each
        // look is a system call, and the jobs are what is waited for.
        if hasPosted {
            busyTurns += 1
            if busyTurns < Self.turnsBetweenLooks { return }
        }
        busyTurns = 0
        let timeout = hasPosted ? 0 : timeout
        var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        descriptors += watchers.keys.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        // Rounded up to whole milliseconds (without `+ 999_999`, which overflows near
        // `UInt64.max`), so a timer is due when `poll` returns.
        let milliseconds = timeout.map { min($0 / 1_000_000 + ($0 % 1_000_000 == 0 ? 0 : 1), UInt64(Int32.max)) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds.map { Int32($0) } ?? -1)
        guard ready > 0 else { return }
        if descriptors[0].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 256)
            while read(wakeRead, &sink, sink.count) > 0 {}
        }
        for entry in descriptors.dropFirst() where entry.revents != 0 {
            watchers[entry.fd]?()
        }
    }

    // MARK: Time

    /// A delay in whole nanoseconds, clamped to `0...maximumDelay` first so that no delay a
    /// script can pass (`Infinity`, `NaN`, `1e300`, `-1`) traps on conversion.
    static func nanoseconds(forDelay seconds: Double) -> UInt64 {
        LoopClock.nanoseconds(in: min(seconds, maximumDelay))
    }

    /// `a + b`, or `UInt64.max` instead of trapping on overflow.
    static func saturatingAdd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
