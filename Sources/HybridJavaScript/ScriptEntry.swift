import CJavaScriptCore

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
    /// outer entry already. An entry the limit cannot stop ends the process, reported under
    /// `name` (`StuckEntryMonitor`).
    public func enter<T>(named name: String = "a script", _ body: () throws(ScriptError) -> T) -> EntryOutcome<T> {
        if entryDepth > 0 {
            do throws(ScriptError) { return EntryOutcome(result: .success(try body())) } catch { return EntryOutcome(result: .failure(error)) }
        }
        entryDepth += 1
        // Read once for both watchers: each reading of a CPU-time clock is a system call.
        let start = Watchdog.cpuTime()
        StuckEntryMonitor.began(ObjectIdentifier(self), name: name, limit: watchdog.limit, at: start)
        defer {
            StuckEntryMonitor.ended(ObjectIdentifier(self))
            entryDepth -= 1
        }
        watchdog.begin(at: start)
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

    /// Whether the time limit has stopped the current entry (it stays stopped until the entry
    /// ends). The engine's own stop is lost when it comes inside an engine call that native
    /// code makes and that catches exceptions (making an array, say): such code throws
    /// `stopValue()` into the script instead of going on.
    public var wasStopped: Bool { watchdog.fired }

    /// What the engine throws when the time limit stops a script, for native code to throw
    /// when it finds the entry stopped (`wasStopped`): the entry reports it as the stop.
    public func stopValue() -> JavaScriptValue {
        makeString(ScriptError.terminationMessage)
    }

    /// Throws the stop (`stopValue()`) when the time limit has stopped the current entry: for
    /// native code the script called, which must not go on for a stopped script.
    public func throwIfStopped() throws(ScriptThrow) {
        if wasStopped { throw ScriptThrow(stopValue()) }
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
