import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where an `EventLoop` reads the time, chosen when the loop is made (`EventLoop(clock:)`).
///
/// Timers are deadlines on this clock. The system clock makes the loop sleep until the first
/// one; a manual clock moves only when told (`EventLoop.advance(by:)`, `ManualClock.advance(by:)`),
/// so what timers do no longer depends on how fast the machine is — the way swift-nio tests
/// use `EmbeddedEventLoop.advanceTime(by:)`. Headless runs use a manual clock so that
/// `wait:1s` takes no wall time; a terminal session, `hybrid eval` and a host's own loops use
/// the system clock.
public enum LoopClock: Sendable {
    /// The system's monotonic clock (`CLOCK_MONOTONIC`): timers wait real time.
    case system
    /// Virtual time that moves only when told. `EventLoop` documents how its loop behaves on one.
    case manual(ManualClock)

    /// The time now, in nanoseconds on this clock's own scale (only differences mean anything).
    public var now: UInt64 {
        switch self {
        case .system: Self.systemNow()
        case .manual(let clock): clock.nanoseconds
        }
    }

    /// Whether time moves only when told, so the loop must never sleep waiting for a timer.
    var isManual: Bool {
        if case .manual = self { return true }
        return false
    }

    /// The system's monotonic time in nanoseconds; also what a loop on a manual clock measures
    /// real waits with.
    static func systemNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `seconds` in whole nanoseconds, never trapping: `NaN` and negative values count as 0,
    /// values past `UInt64.max` nanoseconds (about 584 years) saturate.
    static func nanoseconds(in seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 } // also NaN
        let nanoseconds = (seconds * 1e9).rounded()
        return nanoseconds >= Double(UInt64.max) ? .max : UInt64(nanoseconds) // Double(UInt64.max) is 2⁶⁴
    }
}
