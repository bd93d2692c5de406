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
/// `hasPendingWork`) belongs to the loop thread: the thread inside `run()`, or, before `run()`
/// starts, the thread that is going to call it (a host schedules a script's first timers and
/// then runs the loop). Debug builds check this while the loop runs.
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

    private struct Timer {
        var id: TimerID
        var deadline: UInt64
        var interval: UInt64?
        var body: () -> Void
        var keepsAlive: Bool
    }

    // Posted jobs, the stop flag and the running thread cross threads, under `lock`;
    // everything else is touched on the loop thread only.
    private let lock = NSLock()
    private var posted: [@Sendable () -> Void] = []
    private var stopRequested = false
    private var runningThread: pthread_t?
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private var timers: [Timer] = []
    private var nextTimer = 1
    private var watchers: [Int32: () -> Void] = [:]
    private var pendingWork = 0
    /// The repeating timer whose body is running, and whether that body cancelled it.
    private var firing: (id: TimerID, cancelled: Bool)?

    /// A loop with nothing to do yet.
    public init() {
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
        lock.withLock { posted.append(job) }
        wake()
    }

    /// Makes `run` return after the current job. Safe from any thread; a `stop()` made before
    /// `run()` starts makes that `run()` return after its first turn.
    public func stop() {
        lock.withLock { stopRequested = true }
        wake()
    }

    /// Whether the calling thread is the one inside `run()` now. Safe from any thread.
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
        let timer = Timer(id: id, deadline: Self.saturatingAdd(Self.now(), interval), interval: repeating ? max(interval, 1_000_000) : nil,
                          body: body, keepsAlive: keepsAlive)
        insert(timer)
        return id
    }

    /// Cancels a timer; cancelling one that already ran does nothing. A repeating timer may
    /// cancel itself from its own body. Loop thread only.
    public func cancel(_ id: TimerID) {
        assert(mayTouchLoopState(), "EventLoop.cancel called off the loop thread while the loop runs")
        if firing?.id == id { firing?.cancelled = true }
        timers.removeAll { $0.id == id }
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
    /// headless run waits for between keys (timers only run when it waits on purpose).
    /// Loop thread only.
    public var hasWorkInFlight: Bool {
        pendingWork > 0 || lock.withLock { !posted.isEmpty }
    }

    /// Whether anything is queued, scheduled (that keeps the loop alive) or in flight.
    /// Loop thread only.
    public var hasPendingWork: Bool {
        pendingWork > 0 || timers.contains(where: \.keepsAlive) || lock.withLock { !posted.isEmpty }
    }

    /// Runs jobs, timers and watchers on the calling thread until `stop()`, or with
    /// `untilIdle` until nothing is pending. The calling thread is the loop thread until it
    /// returns.
    public func run(untilIdle: Bool = false) {
        let outer = lock.withLock { () -> pthread_t? in
            let outer = runningThread
            precondition(outer.map { pthread_equal($0, pthread_self()) != 0 } ?? true,
                         "EventLoop.run called on a second thread while the loop runs on another")
            runningThread = pthread_self()
            return outer
        }
        // The stop flag is cleared when `run` returns, not when it starts, so a `stop()` that
        // arrives before `run()` (from another thread, or a job queued first) is not lost.
        defer {
            lock.withLock {
                stopRequested = false
                runningThread = outer
            }
        }
        while true {
            runPosted()
            runDueTimers()
            if lock.withLock({ stopRequested }) { return }
            if untilIdle && !hasPendingWork { return }
            waitForEvents()
        }
    }

    private func runPosted() {
        let jobs = lock.withLock { () -> [@Sendable () -> Void] in
            defer { posted.removeAll(keepingCapacity: true) }
            return posted
        }
        for job in jobs { job() }
    }

    private func runDueTimers() {
        let now = Self.now()
        // Only timers due now; ones they schedule (or that come round again) wait for the next turn.
        while let first = timers.first, first.deadline <= now {
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
            let after = Self.now()
            var next = timer
            next.deadline = Self.saturatingAdd(timer.deadline, interval)
            if next.deadline <= after { next.deadline = Self.saturatingAdd(after, interval) }
            insert(next)
        }
    }

    private func insert(_ timer: Timer) {
        // Equal deadlines keep insertion order, so setTimeout(a, 0); setTimeout(b, 0) runs a first.
        let index = timers.firstIndex { $0.deadline > timer.deadline } ?? timers.endIndex
        timers.insert(timer, at: index)
    }

    private func waitForEvents() {
        var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        descriptors += watchers.keys.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var timeout: Int32 = -1
        if let first = timers.first {
            let now = Self.now()
            // Rounded up to whole milliseconds (without `+ 999_999`, which overflows for a
            // deadline near `UInt64.max`), so the timer is due when `poll` returns.
            let wait = first.deadline <= now ? 0 : first.deadline - now
            let milliseconds = wait / 1_000_000 + (wait % 1_000_000 == 0 ? 0 : 1)
            timeout = Int32(min(milliseconds, UInt64(Int32.max)))
        }
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
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
        guard seconds > 0 else { return 0 } // also NaN
        return UInt64((min(seconds, maximumDelay) * 1e9).rounded())
    }

    /// `a + b`, or `UInt64.max` instead of trapping on overflow.
    static func saturatingAdd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
