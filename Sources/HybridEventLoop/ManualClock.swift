import Foundation

/// Time that moves only when told: the clock of headless runs and of tests that must not
/// depend on wall time. Give it to a loop with `EventLoop(clock: .manual(clock))`.
///
/// There are two ways to move it, and they mean different things to the loop:
/// - `EventLoop.advance(by:)` lets time pass with the loop idle: it steps from one timer's
///   deadline to the next and runs each timer on time, as a quiet loop in real time would.
/// - `advance(by:)` here moves time at once and runs nothing, as if the loop's current job had
///   taken that long: timers that came due meanwhile run on the loop's next turn, late, and a
///   late repeating timer runs once and not once per missed interval. Tests use it to play a
///   busy loop or a slow timer body.
///
/// It starts at 0 and never goes back. Reading and moving it are safe from any thread, but a
/// loop sleeping in `run()` notices a move made on another thread only when something wakes it
/// (a `post`).
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time: UInt64 = 0

    /// A clock at 0.
    public init() {}

    /// Nanoseconds since the clock was made.
    public var nanoseconds: UInt64 {
        lock.withLock { time }
    }

    /// Seconds since the clock was made.
    public var seconds: Double {
        Double(nanoseconds) / 1e9
    }

    /// Moves time on by `seconds` at once, running nothing (see the type's notes for what a
    /// loop on this clock makes of it). `NaN` and negative amounts count as 0.
    public func advance(by seconds: Double) {
        let step = LoopClock.nanoseconds(in: seconds)
        lock.withLock { time = EventLoop.saturatingAdd(time, step) }
    }

    /// Moves time to `target`, or leaves it where it is when it is there already (another
    /// thread may have moved it further): the clock never goes back.
    func move(to target: UInt64) {
        lock.withLock { time = max(time, target) }
    }
}
