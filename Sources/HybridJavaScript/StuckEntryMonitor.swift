#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The last line of defence behind the time limit: a thread that watches the entries into
/// JavaScript and ends the process, with a report, when one keeps running well past its limit.
///
/// The engine arms its time limit afresh for each promise job it drains, so a chain of short
/// jobs it makes itself (an `async` function that awaits in an endless loop) is never stopped,
/// and nothing of ours runs between those jobs to stop it (`then` and `queueMicrotask` are
/// guarded in the prelude; `await` is not observable). Such an entry would freeze the app for
/// ever, deaf to Ctrl-C in a raw terminal. Ending the process is what is left: the report says
/// which entry it was, `beforeEnding` puts the terminal back, and the exit status is 1.
///
/// The monitor counts the CPU time of the thread that entered, so a suspended process
/// (Ctrl-Z) or a busy machine does not look stuck.
public enum StuckEntryMonitor {
    /// How much CPU time an entry may take past its time limit before it counts as stuck: the
    /// engine stops ordinary runaways within milliseconds of the limit.
    public static let grace = 1.0

    /// Runs on the monitor's thread before the report is written and the process ends (the
    /// terminal session puts the terminal back here). Async-signal-safe calls only: the
    /// thread that entered is still running.
    nonisolated(unsafe) public static var beforeEnding: (() -> Void)?

    /// An entry that is running now.
    struct Entry {
        /// What it runs, named in the report (a file, a handler, a timer).
        var name: String
        /// The CPU-time clock of the thread that entered.
        var clock: clockid_t
        /// That clock's reading when the entry began.
        var start: Double
        /// The CPU time after which the entry is stuck (its limit plus `grace`).
        var allowance: Double
    }

    /// The entries running now, by their context; the monitor thread is started with the first.
    private static let entries = Mutex<(running: [ObjectIdentifier: Entry], started: Bool)>(([:], false))

    /// How often the monitor looks, in seconds.
    static let interval = 0.25

    /// An entry of `context` named `name` began on the calling thread, whose CPU time was
    /// `start`, with `limit` seconds of CPU time (nothing is watched without a finite limit).
    static func began(_ context: ObjectIdentifier, name: String, limit: Double, at start: Double) {
        guard limit.isFinite else { return }
        var clock = clockid_t()
        guard pthread_getcpuclockid(pthread_self(), &clock) == 0 else { return }
        let entry = Entry(name: name, clock: clock, start: start, allowance: limit + grace)
        let startThread = entries.withLock { state in
            state.running[context] = entry
            defer { state.started = true }
            return !state.started
        }
        if startThread { startMonitor() }
    }

    /// The entry of `context` ended.
    static func ended(_ context: ObjectIdentifier) {
        entries.withLock { state in _ = state.running.removeValue(forKey: context) }
    }

    /// The report for a stuck entry.
    static func report(for entry: Entry) -> String {
        "stopped the app: \(entry.name) ran on for \(Int(grace)) s of CPU time past its time limit, in work the engine "
            + "cannot stop (an async function that awaits in an endless loop, or a native call given a huge value?)\n"
    }

    private static func startMonitor() {
        DetachedThread.start { _ in
            StuckEntryMonitor.watch()
            return nil
        }
    }

    private static func watch() -> Never {
        while true {
            var pause = timespec(tv_sec: 0, tv_nsec: Int(interval * 1e9))
            var left = timespec()
            while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
            let stuck = entries.withLock { state in
                state.running.values.first { cpuTime($0.clock) - $0.start > $0.allowance }
            }
            if let stuck { end(reporting: report(for: stuck)) }
        }
    }

    /// Puts things back (`beforeEnding`), writes `message` to standard error and ends the
    /// process at once: exit handlers would run beside a thread still inside the engine.
    private static func end(reporting message: String) -> Never {
        beforeEnding?()
        var bytes = Array(message.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        _exit(1)
    }

    private static func cpuTime(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
