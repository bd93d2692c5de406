import CJavaScriptCore
#if canImport(Glibc)
import Glibc
#endif

/// How one entry into JavaScript ended (`JavaScriptContext.enter`).
public struct EntryOutcome<Value> {
    init(result: Result<Value, ScriptError>, runaway: ScriptError? = nil, exceededMemory: Bool = false) {
        self.result = result
        self.runaway = runaway
        self.exceededMemory = exceededMemory
    }

    /// What the entry's own work returned or threw.
    public var result: Result<Value, ScriptError>
    /// Set when the time limit stopped the entry, whether in its own work or in the promise
    /// jobs and microtasks it queued: a termination error located where the script was stopped.
    public var runaway: ScriptError?
    /// Whether it was stopped for the process's memory (`maximumMemory`) rather than its time.
    public var exceededMemory = false
}

extension JavaScriptContext {
    /// Runs `body` as one entry into JavaScript under one time limit that covers everything the
    /// entry causes to run: the body's calls, getters and proxies read while converting values,
    /// and the microtasks and promise jobs queued meanwhile.
    ///
    /// JavaScriptCore arms its limit afresh on each entry of its own: a getter read while a
    /// value is converted, or a script called again after a stop, got a fresh limit (or none, in
    /// a nested call after the limit fired). Here the body runs inside one engine call (the
    /// trampoline), with the lock held so that nothing drains before the body is done; once the
    /// limit fires it keeps firing until the entry ends. The engine drains the microtask queue
    /// when the lock is released for the last time, each job an entry of its own with the
    /// engine's limit (a job queued after a stop is stopped within a millisecond), and the jobs a
    /// stopped drain left behind are drained again, so they do not run into the next entry.
    /// Jobs are checked against the whole entry's CPU time where scripts queue them
    /// (`isOverBudget`): polling the engine's limit per job races inside JavaScriptCore.
    ///
    /// Nested calls (from native code a script called) run `body` directly: they are inside the
    /// outer entry already.
    public func enter<T>(_ body: () throws(ScriptError) -> T) -> EntryOutcome<T> {
        if entryDepth > 0 {
            do throws(ScriptError) { return EntryOutcome(result: .success(try body())) } catch { return EntryOutcome(result: .failure(error)) }
        }
        entryDepth += 1
        defer { entryDepth -= 1 }
        watchdog.begin()
        var result: Result<T, ScriptError> = .failure(watchdog.stopError())
        JSLock(ref)
        withoutActuallyEscaping(body) { body in
            runInsideEntry {
                do throws(ScriptError) { result = .success(try body()) } catch { result = .failure(error) }
            }
        }
        JSUnlock(ref)
        // A stopped drain leaves jobs behind (a chain queues its next link before it is stopped):
        // drain again, each stopped at once, until a drain ends without stopping anything.
        var rounds = 0
        while watchdog.stoppedSinceAsked(), rounds < Self.maximumDrainRounds {
            runInsideEntry {}
            rounds += 1
        }
        watchdog.checkGrowth()
        let runaway = watchdog.fired ? watchdog.stopError() : nil
        let exceededMemory = watchdog.exceededMemory
        watchdog.end()
        return EntryOutcome(result: result, runaway: runaway, exceededMemory: exceededMemory)
    }

    /// Whether the current entry has used its time limit (microtasks are checked where they
    /// run); the first time, it counts as the limit firing at `site()` (`FILE:LINE:COL`, asked
    /// only then), or where the script is now. Never outside an entry: there is no budget to use.
    public func isOverBudget(at site: () -> String? = { nil }) -> Bool {
        entryDepth > 0 && watchdog.isOverBudget(ref, at: site)
    }

    /// The most memory the process may gain, from when the context was made, while scripts run:
    /// past it the script running is stopped like a runaway (a loop filling an array reached
    /// gigabytes within the time limit). Counted from the context's making, so what a host
    /// process held before is not the scripts'.
    public static let maximumMemory = 512 << 20

    /// How often the queue left by a runaway is drained again (each round stops at least one job).
    static let maximumDrainRounds = 10_000

    /// Calls `work` from inside one engine call (its lock released last drains the queue); a
    /// termination the call ends with (the time limit's: the work catches everything else) is
    /// cleared by the call.
    private func runInsideEntry(_ work: () -> Void) {
        withoutActuallyEscaping(work) { work in
            entryWork = work
            defer { entryWork = nil }
            var exception: JSValueRef?
            JSObjectCallAsFunction(ref, trampoline, nil, 0, nil, &exception)
        }
    }

    /// The function entries run inside: one engine call per entry, so the engine's time limit is
    /// armed once per entry.
    func makeTrampoline() -> JSObjectRef {
        let function = makeHostFunction { [unowned(unsafe) self] _, _, _ throws(ScriptThrow) in
            self.entryWork?()
            return nil
        }
        JSValueProtect(ref, function)
        return function
    }
}

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
    /// The process's resident memory when the entry began.
    private var startMemory = 0
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

    /// An entry begins: its body gets the whole limit (also after a stop outside any entry, a
    /// host's own call, that nobody reported).
    func begin() {
        end()
        inEntry = true
        start = Self.cpuTime()
        startMemory = Self.residentMemory()
        stops = 0
        arm(min(limit, Self.slice))
    }

    /// Whether the entry has used its limit, checked from native code the script called; the
    /// first time it is, the limit counts as fired there.
    func isOverBudget(_ context: JSContextRef, at site: () -> String?) -> Bool {
        if fired { return true }
        let used = Self.cpuTime() - start
        exceededMemory = used < limit && isOverMemory(Self.residentMemory())
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
            exceededMemory = used < limit && isOverMemory(Self.residentMemory())
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
    func checkGrowth() {
        guard inEntry, !fired else { return }
        let memory = Self.residentMemory()
        guard isOverMemory(memory), memory - startMemory > Self.noticeableGrowth else { return }
        exceededMemory = true
        fired = true
    }

    /// Whether the process gained more than `maximumMemory` since the context was made.
    private func isOverMemory(_ memory: Int) -> Bool {
        memory - baselineMemory > JavaScriptContext.maximumMemory
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

    /// The calling thread's CPU time in seconds (what the engine's limit counts too).
    private static func cpuTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
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
