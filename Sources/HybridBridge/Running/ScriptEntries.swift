import HybridJavaScript
import HybridServices

/// The one way from native code into JavaScript, and where what scripts say goes out: every
/// entry runs through `enter`, which applies the time limit's verdict and reports what a
/// script threw, in the author's terms, so a bad script never stops the app.
///
/// It keeps the stack of entries running now, because an entry can be nested (a script called
/// native code that called back in: a patched function inside a sync service). When the time
/// limit stops a nested one, JavaScriptCore ends the outermost one as well, so the runaway is
/// reported once, there, under the innermost name.
final class ScriptEntries {
    /// The JavaScript context.
    let context: JavaScriptContext
    /// The CPU time one entry may take before it is stopped.
    let timeLimit: Double
    /// Where locations are put in the author's terms (and which files are modules).
    let locator: ScriptLocator
    /// Where `console.*` output goes: `(level, text)`.
    var console: (String, String) -> Void
    /// Where failures (uncaught errors, unhandled rejections, runaways) are reported.
    var onError: (ScriptError) -> Void
    /// Asked after the time limit stopped an entry: who ran away inside it, when someone more
    /// precise than the entry can be blamed (a patch hook), and how to charge them.
    var findRunaway: () -> Runaway? = { nil }
    /// How many failures were reported.
    private(set) var failureCount = 0

    /// What is running now, innermost last, with where it was set up (a timer's `setTimeout`
    /// line, found only when asked) when known: fallback locations for values thrown without one.
    private var running: [(what: String, site: (() -> String?)?)] = []
    /// The nested entry the time limit stopped, until the outermost one ends.
    private var stoppedInside: String?
    /// Unhandled rejections found during the outermost entry, reported when it ends: not at
    /// all when it ran away, since a stop between making a promise and handling it leaves it
    /// unhandled through no fault of the script's.
    private var rejections: [ScriptError] = []

    /// Who ran away inside an entry.
    struct Runaway {
        /// Named in the report, e.g. `a patch hook on handler:spin`.
        var culprit: String
        /// Called once the runaway is reported.
        var charge: () -> Void
    }

    init(context: JavaScriptContext, timeLimit: Double, console: @escaping (String, String) -> Void, onError: @escaping (ScriptError) -> Void) {
        self.context = context
        self.timeLimit = timeLimit
        self.console = console
        self.onError = onError
        locator = ScriptLocator()
        context.limitExecutionTime(to: timeLimit)
    }

    /// Runs `body` as one entry into JavaScript, named `what` in reports; reports a failure
    /// before returning it. The time limit covers the whole entry: the body, the values it
    /// converts (getters, proxies) and the microtasks it queues (`JavaScriptContext.enter`);
    /// a runaway anywhere in it is a failure of the entry.
    @discardableResult
    func enter<T>(_ what: String, at site: (() -> String?)? = nil, _ body: (JavaScriptContext) throws(ScriptError) -> T) -> Result<T, ScriptError> {
        running.append((what, site))
        defer { running.removeLast() }
        let outcome = context.enter(named: what) { () throws(ScriptError) in try body(context) }
        if running.count > 1 {
            if case .failure(let error) = outcome.result {
                if error.isTermination { stoppedInside = stoppedInside ?? what } else { report(error) }
            }
            return outcome.result
        }
        let stopped = stoppedInside
        stoppedInside = nil
        let unhandled = rejections
        rejections = []
        if case .failure(let error) = outcome.result, !error.isTermination { report(error) }
        if let runaway = outcome.runaway {
            reportRunaway(in: stopped ?? what, at: runaway, memory: outcome.exceededMemory)
            return .failure(runaway)
        }
        unhandled.forEach(report)
        return outcome.result
    }

    /// Reports a promise rejection nobody handled: at the end of the entry it happened in.
    func reportUnhandledRejection(_ error: ScriptError) {
        if running.isEmpty { report(error) } else { rejections.append(error) }
    }

    /// Reports a failure with its location and stack in the script's own terms.
    func report(_ error: ScriptError) {
        failureCount += 1
        let fallback = running.last { $0.site != nil }?.site?() ?? running.last { $0.what.hasSuffix(".js") }?.what
        onError(locator.clean(error, fallback: fallback))
    }

    /// Shows a line about the scripts that is no failure of theirs (a hook disabled) the way
    /// failures are shown, without counting it.
    func announce(_ text: String) {
        onError(ScriptError(message: text, location: nil, stack: []))
    }

    /// Reports that the time limit stopped `what`, or someone running inside it, where it was.
    private func reportRunaway(in what: String, at stop: ScriptError, memory: Bool) {
        let runaway = findRunaway()
        let culprit = runaway.map { "\($0.culprit) (in \(what))" } ?? what
        let reason = memory ? "grew the app's memory by more than \(JavaScriptContext.maximumMemory >> 20) MB"
            : "ran longer than the \(formatDuration(timeLimit)) limit"
        report(ScriptError(message: "stopped: \(culprit) \(reason) (a runaway script?)",
                           location: stop.location, stack: stop.stack, isTermination: true))
        runaway?.charge()
    }
}
