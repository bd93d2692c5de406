import HybridBundles
import HybridEventLoop
import HybridFiles
import HybridServices

/// Boot safety (SPEC §5): starts the newest launchable version of an app under watch, and
/// falls back version by version. A start is settled once — by `hybrid.ready()`, by a failure
/// of its own (a throw while starting, a runaway, the ready timeout, a start left `trying` by
/// a process that died) or by the host's fallback — and the boot record says how it went.
/// Used on the app's loop thread only.
final class BootSupervisor: @unchecked Sendable {
    private unowned let app: HybridApp
    /// The start being watched, until it is ready or failed.
    private var attempt: BootAttempt?
    /// How long a new version may take to call `hybrid.ready()` before it is marked bad.
    var readyTimeout = 5.0
    /// Set when the app ended because nothing it was given could start.
    private(set) var failure: AppError?

    init(app: HybridApp) {
        self.app = app
    }

    /// Whether an installed version's start is being watched, so a failure of it restores the
    /// database it migrated (`BundleDatabase.restore`): only then is a copy worth setting aside.
    var watchesAnInstalledStart: Bool {
        if case .installed? = attempt?.candidate { return true }
        return false
    }

    /// Starts the newest launchable version of `app`, falling back version by version and
    /// last to `fallback` (the host's own screens).
    func start(installedVersionsOf name: String, fallback: (() throws(AppError) -> Void)?) throws(AppError) {
        var candidates = app.bundleSettings.cache.launchableVersions(of: name).map(BootCandidate.installed)
        if let fallback { candidates.append(.embedded(fallback)) }
        guard !candidates.isEmpty else { throw AppError("no version of \(name) is installed that can start") }
        try app.registerBuiltInsIfNeeded(app: name)
        app.navigation.rememberHostRouter()
        try launch(candidates[...])
    }

    /// The app ends (it quit, or its run is over) while a start is still watched: no verdict,
    /// since quitting is no failure of the version's own (SPEC §5); the next launch starts it
    /// again. Signals take the same way out through `InterruptCleanup`.
    func interrupted() {
        guard let attempt else { return }
        release(attempt)
        self.attempt = nil
        if case .installed(let installed) = attempt.candidate {
            let cache = app.bundleSettings.cache
            cache.recordInterrupted(installed.version, of: installed.app)
            InterruptCleanup.keep(cache.startMarker(of: installed.version, app: installed.app))
        }
    }

    /// A bundle without an entry script is ready once its start screen opened.
    func startScreenOpened() {
        attempt?.isReady = true
    }

    /// `hybrid.ready()`: the start being watched succeeded.
    func scriptIsReady() {
        guard let attempt else { return }
        attempt.isReady = true
        // Ready while starting is settled by `launch`; later, here.
        if attempt.holdsWork { succeed(attempt) }
    }

    /// Called for every script failure: one before the start is ready fails the start.
    func scriptFailed(_ report: String) {
        guard let attempt, !attempt.isReady, attempt.failure == nil else { return }
        attempt.failure = "it failed while starting: " + report
        // Unloading from inside the script's own call would pull the runtime from under it.
        if attempt.holdsWork {
            app.loop.post { [weak self, weak attempt] in
                guard let self, let attempt else { return }
                failLater(attempt, attempt.failure!)
            }
        }
    }

    /// Starts the first candidate; its failure, now or later, starts the next.
    private func launch(_ candidates: ArraySlice<BootCandidate>) throws(AppError) {
        guard let candidate = candidates.first else {
            throw AppError("nothing could start: every version failed (see above)")
        }
        let attempt = BootAttempt(candidate: candidate, rest: candidates.dropFirst())
        self.attempt = attempt
        switch candidate {
        case .embedded(let start):
            self.attempt = nil
            try start()
            return
        case .installed(let installed):
            if installed.state == .trying {
                // The last start of this version never ended: the process died in it.
                return try fail(attempt, "its last start never finished (the app crashed or was killed while it started)")
            }
            if installed.state == nil { record(.trying, installed) }
            let load = BundleFolder.open(installed.path)
            guard let bundle = load.value, !load.hasErrors else {
                return try fail(attempt, load.formattedDiagnostics.joined(separator: "\n"))
            }
            do {
                // Every load checks the signature again: the cache is only a folder on disk.
                try app.bundleSettings.verify(folder: installed.path)
            } catch {
                return try fail(attempt, "\(installed.path): \(error)")
            }
            do {
                try app.load(bundle: bundle)
            } catch where !error.isTheBundles {
                // Not the version's failure (its database locked by another process): no
                // verdict, and no older version tried, which would meet the same lock.
                interrupted()
                app.unloadBundle()
                throw error
            } catch {
                return try fail(attempt, attempt.failure ?? error.description)
            }
        }
        if let failure = attempt.failure { return try fail(attempt, failure) }
        if attempt.isReady { return succeed(attempt) }
        app.loop.beginWork()
        attempt.holdsWork = true
        attempt.timer = app.loop.schedule(after: readyTimeout) { [weak self, weak attempt] in
            guard let self, let attempt else { return }
            failLater(attempt, "it did not call hybrid.ready() within \(formatDuration(readyTimeout))")
        }
    }

    private func succeed(_ attempt: BootAttempt) {
        guard self.attempt === attempt else { return }
        release(attempt)
        self.attempt = nil
        if case .installed(let installed) = attempt.candidate {
            if installed.state != .healthy { record(.healthy, installed) }
            BundleDatabase.discardCopy(app: installed.app, before: installed.version.description)
        }
    }

    /// Marks the attempt's version bad, unloads it, and starts the next candidate.
    private func fail(_ attempt: BootAttempt, _ reason: String) throws(AppError) {
        guard self.attempt === attempt else { return }
        release(attempt)
        self.attempt = nil
        // The whole report (a script error's stack) was printed when it happened: once is enough.
        let firstLine = reason.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? reason
        if case .installed(let installed) = attempt.candidate, installed.state == .healthy {
            // It started well before, so the cause may lie outside it: skipped now, not condemned.
            app.log("\(installed.app) \(installed.version) failed to start this time; the previous version runs: \(firstLine)")
        } else if case .installed(let installed) = attempt.candidate {
            app.log("\(installed.app) \(installed.version) is marked bad and will not be launched again: \(firstLine)")
            InterruptCleanup.keep(app.bundleSettings.cache.startMarker(of: installed.version, app: installed.app))
            do {
                try app.bundleSettings.cache.record(.bad, version: installed.version, of: installed.app, reason: firstLine)
            } catch {
                app.log("cannot record the boot of \(installed.app) \(installed.version): \(error)")
            }
        }
        app.unloadBundle()
        if case .installed(let installed) = attempt.candidate, let restored = BundleDatabase.restore(app: installed.app, before: installed.version.description) {
            app.log(restored)
        }
        try launch(attempt.rest)
    }

    /// A failure found while the app runs: nowhere to throw to, so the app ends with it when
    /// nothing else can start.
    private func failLater(_ attempt: BootAttempt, _ reason: String) {
        do {
            try fail(attempt, reason)
        } catch {
            app.log(error.description)
            failure = error
            app.quit()
        }
        app.needsFrame = true
    }

    private func release(_ attempt: BootAttempt) {
        if let timer = attempt.timer { app.loop.cancel(timer) }
        attempt.timer = nil
        if attempt.holdsWork {
            attempt.holdsWork = false
            app.loop.endWork()
        }
    }

    /// Records the state; while `trying`, an interrupt removes the start marker on the way out.
    private func record(_ state: BootState, _ installed: InstalledBundle) {
        let cache = app.bundleSettings.cache
        let marker = cache.startMarker(of: installed.version, app: installed.app)
        // Registered before the marker exists, so no interrupt finds it unregistered.
        if state == .trying { InterruptCleanup.removeOnInterrupt(marker) } else { InterruptCleanup.keep(marker) }
        do {
            try cache.record(state, version: installed.version, of: installed.app)
        } catch {
            app.log("cannot record the boot of \(installed.app) \(installed.version): \(error)")
        }
    }
}

/// What can be started for an app, in order of preference.
enum BootCandidate {
    /// A version in the cache.
    case installed(InstalledBundle)
    /// The host's own screens.
    case embedded(() throws(AppError) -> Void)
}

/// One start under watch: settled once, by `hybrid.ready()`, a failure, or the timeout.
/// Loop thread only, like the app.
final class BootAttempt: @unchecked Sendable {
    let candidate: BootCandidate
    let rest: ArraySlice<BootCandidate>
    var isReady = false
    var failure: String?
    var timer: EventLoop.TimerID?
    var holdsWork = false

    init(candidate: BootCandidate, rest: ArraySlice<BootCandidate>) {
        self.candidate = candidate
        self.rest = rest
    }
}
