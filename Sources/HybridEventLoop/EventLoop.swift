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
public final class EventLoop: @unchecked Sendable {
    /// Identifies a timer, to cancel it.
    public struct TimerID: Hashable, Sendable {
        let value: Int
    }

    private struct Timer {
        var id: TimerID
        var deadline: UInt64
        var interval: UInt64?
        var body: () -> Void
        var keepsAlive: Bool
    }

    // Posted jobs cross threads; everything else is touched on the loop thread only.
    private let lock = NSLock()
    private var posted: [@Sendable () -> Void] = []
    private var stopRequested = false
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private var timers: [Timer] = []
    private var nextTimer = 1
    private var watchers: [Int32: () -> Void] = [:]
    private var pendingWork = 0

    /// A loop with nothing to do yet.
    public init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "cannot create the event loop's wake-up pipe")
        wakeRead = fds[0]
        wakeWrite = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
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

    /// Makes `run` return after the current job.
    public func stop() {
        lock.withLock { stopRequested = true }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    // MARK: On the loop thread

    /// Runs `body` after `seconds` (and again every `seconds` when `repeating`). A timer with
    /// `keepsAlive` false (a UI clock) does not keep `run(untilIdle:)` going.
    @discardableResult
    public func schedule(after seconds: Double, repeating: Bool = false, keepsAlive: Bool = true, _ body: @escaping () -> Void) -> TimerID {
        let interval = UInt64(max(0, seconds) * 1e9)
        let id = TimerID(value: nextTimer)
        nextTimer += 1
        let timer = Timer(id: id, deadline: Self.now() + interval, interval: repeating ? max(interval, 1_000_000) : nil,
                          body: body, keepsAlive: keepsAlive)
        insert(timer)
        return id
    }

    /// Cancels a timer; cancelling one that already ran does nothing.
    public func cancel(_ id: TimerID) {
        timers.removeAll { $0.id == id }
    }

    /// Calls `onReadable` whenever `descriptor` has input (until `unwatch`).
    public func watch(_ descriptor: Int32, _ onReadable: @escaping () -> Void) {
        watchers[descriptor] = onReadable
    }

    /// Stops watching `descriptor`.
    public func unwatch(_ descriptor: Int32) {
        watchers[descriptor] = nil
    }

    /// Marks work in flight elsewhere (an async service call) that will post back; while any
    /// is in flight, `run(untilIdle:)` keeps waiting.
    public func beginWork() { pendingWork += 1 }

    /// Marks one piece of work begun with `beginWork` as finished.
    public func endWork() { pendingWork = max(0, pendingWork - 1) }

    /// Whether anything is queued, scheduled (that keeps the loop alive) or in flight.
    public var hasPendingWork: Bool {
        pendingWork > 0 || timers.contains(where: \.keepsAlive) || lock.withLock { !posted.isEmpty }
    }

    /// Runs jobs, timers and watchers on the calling thread until `stop()`, or with
    /// `untilIdle` until nothing is pending.
    public func run(untilIdle: Bool = false) {
        lock.withLock { stopRequested = false }
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
        // Only timers due now; ones they schedule wait for the next turn.
        while let first = timers.first, first.deadline <= now {
            var timer = timers.removeFirst()
            if let interval = timer.interval {
                timer.deadline = max(timer.deadline + interval, now)
                insert(timer)
            }
            timer.body()
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
            timeout = first.deadline <= now ? 0 : Int32(min((first.deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
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

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
