import CJavaScriptCore
#if canImport(Glibc)
import Glibc
#endif

/// The time limit (`JavaScriptContext.limitExecutionTime`): whether it fired in the current
/// entry, and where the script was when it did. Its C callback reaches it by pointer.
final class Watchdog {
    private let group: JSContextGroupRef
    /// The CPU time one entry may take.
    var limit = Double.infinity
    /// Set when the limit stopped a script; stays set until the entry ends, so that whatever the
    /// entry runs afterwards (a getter read again, a queued job) is stopped at once too.
    private(set) var fired = false
    /// Whether it fired for the process's memory rather than the entry's time.
    private(set) var exceededMemory = false
    /// Whether an entry is running: inside one the engine checks back every `slice`, and the
    /// whole entry's time counts; outside, the engine's own limit applies to each of its calls.
    private var inEntry = false
    /// The thread's CPU time when the entry began.
    private var start = 0.0
    /// The monotonic clock's reading then: CPU time never runs ahead of it, so an entry short
    /// by this clock is short by the other, which costs a system call to read.
    private var wallStart = 0.0
    /// The process's resident memory when an entry last looked (when the context was made, at
    /// first): what an entry grew it by is measured from there.
    private var lastMemory = Watchdog.residentMemory()
    /// The process's resident memory when the context was made.
    private let baselineMemory = Watchdog.residentMemory()
    /// How often the limit stopped something since last asked (`stoppedSinceAsked`).
    private var stops = 0
    /// Where the script was stopped: `function@FILE:LINE:1` frames, innermost first.
    private var frames: [String] = []

    init(group: JSContextGroupRef) {
        self.group = group
    }

    /// Arms the engine's limit with `seconds` for its next entry (and the current one).
    func arm(_ seconds: Double) {
        JSContextGroupSetExecutionTimeLimit(group, seconds, { context, pointer in
            Unmanaged<Watchdog>.fromOpaque(pointer!).takeUnretainedValue().check(context)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// An entry begins, at the thread's CPU time `start` (`cpuTime()`, read once by the caller
    /// for everything that watches the entry): its body gets the whole limit (also after a stop
    /// outside any entry, a host's own call, that nobody reported).
    func begin(at start: Double) {
        end()
        inEntry = true
        self.start = start
        wallStart = Self.monotonicTime()
        stops = 0
        arm(min(limit, Self.slice))
    }

    /// Whether the entry has used its limit, checked from native code the script called; the
    /// first time it is, the limit counts as fired there.
    func isOverBudget(_ context: JSContextRef, at site: () -> String?) -> Bool {
        if fired { return true }
        let used = Self.cpuTime() - start
        exceededMemory = used < limit && grewTooMuch(Self.residentMemory())
        guard used >= limit || exceededMemory else { return false }
        fire(context)
        if let site = site() { frames = [site] }
        return true
    }

    /// Whether the limit stopped something since the last call.
    func stoppedSinceAsked() -> Bool {
        defer { stops = 0 }
        return stops > 0
    }

    /// The entry ended: the engine's own limit again, whole.
    func end() {
        guard inEntry || fired else { return }
        // What a stopped entry left held is not the next one's growth.
        if fired { lastMemory = Self.residentMemory() }
        inEntry = false
        fired = false
        exceededMemory = false
        frames = []
        arm(limit)
    }

    /// The termination error of the entry, located where the limit stopped it.
    func stopError() -> ScriptError {
        let location = frames.first.map { frame in frame.firstIndex(of: "@").map { String(frame[frame.index(after: $0)...]) } ?? frame }
        return ScriptError(message: ScriptError.terminationMessage, location: location, stack: frames, isTermination: true)
    }

    /// The engine asks whether to stop the script (inside an entry, every `slice` of CPU time
    /// a script runs): yes once the entry has used its limit or the process holds more than
    /// `maximumMemory` (then remember where the script was, and stop everything else until the
    /// entry ends); else it is asked again after the next slice.
    private func check(_ context: JSContextRef?) -> Bool {
        if !fired, inEntry {
            let used = Self.cpuTime() - start
            exceededMemory = used < limit && grewTooMuch(Self.residentMemory())
            if used < limit, !exceededMemory {
                arm(min(limit - used, Self.slice))
                return false
            }
        }
        fire(context)
        return true
    }

    /// Stops the entry: remembers where the script was (the first time), and stops whatever it
    /// runs until it ends.
    private func fire(_ context: JSContextRef?) {
        if !fired, let context, let backtrace = JSContextCreateBacktrace(context, 16) {
            frames = Self.frames(JavaScriptContext.string(backtrace))
            JSStringRelease(backtrace)
        }
        fired = true
        stops += 1
        arm(Self.afterStop)
    }

    /// At the end of an entry that was not stopped: one that grew the process past
    /// `maximumMemory` (by more than `noticeableGrowth`: the memory an earlier runaway left is
    /// not this entry's) counts as stopped for it — many short timers filling memory would
    /// never be looked at while they run — so an interval doing it is cleared and it is reported.
    /// Entries that took under a millisecond are not looked at: none can grow it that much.
    func checkGrowth() {
        guard inEntry, !fired, Self.monotonicTime() - wallStart >= 0.001 else { return }
        let memory = Self.residentMemory()
        defer { lastMemory = memory }
        guard grewTooMuch(memory) else { return }
        exceededMemory = true
        fired = true
    }

    /// Whether the process gained more than `maximumMemory` since the context was made, and the
    /// running entry a noticeable part of it (what an earlier runaway left held is not its doing).
    private func grewTooMuch(_ memory: Int) -> Bool {
        memory - baselineMemory > JavaScriptContext.maximumMemory && memory - lastMemory > Self.noticeableGrowth
    }

    /// Growth of the process's memory in one entry that counts towards `maximumMemory`.
    static let noticeableGrowth = 16 << 20

    /// How much CPU time a script runs between two looks at its entry's time and memory.
    static let slice = 0.05

    /// The process's resident memory in bytes (0 where it cannot be read).
    private static func residentMemory() -> Int {
        #if os(Linux)
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        // `size resident shared …`, in pages.
        let fields = buffer.prefix(count).split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }

    /// The limit while an entry that was stopped goes on: whatever runs is stopped at once. (Not
    /// zero: a limit of zero floods the engine with stop requests, and one of them races.)
    static let afterStop = 0.001

    /// The calling thread's CPU time in seconds (what the engine's limit counts too). A system
    /// call (about 0.4 µs here), unlike `monotonicTime()`.
    static func cpuTime() -> Double {
        seconds(CLOCK_THREAD_CPUTIME_ID)
    }

    /// The monotonic clock in seconds, read without a system call.
    private static func monotonicTime() -> Double {
        seconds(CLOCK_MONOTONIC)
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `function@FILE:LINE:1` for each line `#N function() at FILE:LINE` of a backtrace (the
    /// engine gives no column); frames without a file are left out.
    static func frames(_ backtrace: String) -> [String] {
        backtrace.split(separator: "\n").compactMap { line in
            guard let at = line.firstRange(of: ") at ") else { return nil }
            let place = line[at.upperBound...]
            guard let colon = place.lastIndex(of: ":"), Int(place[place.index(after: colon)...]) != nil,
                  colon != place.startIndex else { return nil }
            // `#N f(`: the function's name, empty for top-level code.
            let name = line[..<at.lowerBound].drop { $0 != " " }.dropFirst().dropLast()
            return "\(name.isEmpty ? "" : name + "@")\(place):1"
        }
    }
}
