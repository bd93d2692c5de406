import Foundation
import HybridBridge
import HybridBundles
import HybridDatabase
import HybridDocument
import HybridEventLoop
import HybridFiles
import HybridJSON
import HybridServices
import HybridTerminal
import HybridWidgets

/// Running bundles (SPEC §5): installing, starting under watch, and falling back when a new
/// version fails to start.
extension HybridApp {
    /// Registers the built-in services for `app` (storage under its own folder).
    public func registerBuiltIns(app: String, screenSize: @escaping @Sendable () -> TerminalSize) throws(AppError) {
        do {
            BuiltInServices.register(in: services, storage: try KeyValueStore.forApp(app), screenSize: screenSize)
        } catch {
            throw AppError("cannot keep storage for app \"\(app)\": \(error)")
        }
    }

    /// Registers the built-in services for the bundle's app, unless the host already did:
    /// they are always there for scripts (SPEC §3), with `device.info` reporting the app's size.
    func registerBuiltInsIfNeeded(app name: String) throws(AppError) {
        guard services.description(of: "device.info") == nil else { return }
        try registerBuiltIns(app: name, screenSize: { [weak self] in self?.size ?? .standard })
    }

    /// Loads a bundle and starts it.
    ///
    /// A folder runs in place. An archive or a URL is verified against `trustedKeys` and
    /// installed into `bundleCache` when it is newer than what is installed; then the newest
    /// installed version that is not marked bad starts under watch. A refused or unreachable
    /// download is reported and what is installed runs (offline start). A version that throws
    /// while starting, runs away, or does not call `hybrid.ready()` within `readyTimeout` is
    /// marked bad and the next one starts in the same session — the previous version, then
    /// `fallback` (the host's own screens), when given.
    ///
    /// `expectedApp` refuses bundles of another app (a host knows its app's name). Call it
    /// before the app runs, or on its loop thread.
    public func load(bundle source: BundleSource, expectedApp: String? = nil, fallback: (() throws(AppError) -> Void)? = nil) async throws(AppError) {
        switch source {
        case .directory(let path):
            try load(folder: path)
            return
        case .development(let url):
            try await load(development: url)
            return
        case .archive(let path):
            var app = expectedApp
            do {
                let outcome = try bundleSettings.installer(expectedApp: expectedApp).install(archive: path)
                app = outcome.bundle.app
            } catch {
                // Errors about the archive as a whole name it already; those about a file in it do not.
                let reason = "\(error)"
                let failure = reason.hasPrefix(path + ":") ? reason : "\(path): \(reason)"
                // Thrown, it is printed once, by whoever ends the run with it.
                guard app != nil || fallback != nil else { throw AppError(failure) }
                log(failure)
                if app == nil, let fallback { return try fallback() }
            }
            try boot.start(installedVersionsOf: app!, fallback: fallback)
        case .url(let url):
            var app = expectedApp ?? bundleCache.app(forOrigin: url.absoluteString)
            do {
                let outcome = try await bundleSettings.installer(expectedApp: expectedApp).install(from: url)
                app = outcome.bundle.app
            } catch {
                log("\(url.absoluteString): \(error)")
            }
            guard let app else {
                guard let fallback else { throw AppError("\(url.absoluteString): nothing could be downloaded and nothing of it is installed") }
                return try fallback()
            }
            try boot.start(installedVersionsOf: app, fallback: fallback)
        }
    }

    /// Tells the app its run is over (its driver returned): a new version still starting under
    /// watch ends without a verdict, since quitting is no failure of its own (SPEC §5), and
    /// starts again at the next launch.
    public func runDidEnd() {
        boot.interrupted()
    }

    /// Runs a folder in place; a signed one is verified first (every load, not only at install).
    func load(folder path: String, unsignedWarning: String? = nil) throws(AppError) {
        let opened = BundleFolder.open(path)
        for line in opened.formattedDiagnostics { log(line) }
        guard let bundle = opened.value, !opened.hasErrors else { throw AppError("\(path): the bundle cannot run") }
        try registerBuiltInsIfNeeded(app: bundle.manifest.app)
        if bundle.isSigned {
            do {
                try bundleSettings.verify(folder: path)
            } catch {
                throw AppError("\(path): \(error)")
            }
        }
        try load(bundle: bundle, unsignedWarning: unsignedWarning ?? Self.unsignedWarning(path))
    }

    // MARK: Development

    /// Mirrors a served folder, runs it, and reloads it whenever the served folder changes.
    private func load(development url: URL) async throws(AppError) {
        let mirror: DevelopmentMirror
        let generation: Int
        do {
            var configured = try DevelopmentMirror(url: url, folder: bundleCache.developmentFolder(for: url))
            configured.timeout = downloadTimeout
            mirror = configured
            generation = try await mirror.sync()
        } catch {
            throw AppError("\(url.absoluteString): \(error)")
        }
        navigation.rememberHostRouter()
        try load(folder: mirror.folder, unsignedWarning: "\(url.absoluteString): a development bundle (unsigned); it reloads whenever the served folder changes")
        Task.detached { [weak self] in
            var seen = generation
            // Ends with the app; the loop is reached through it, never kept alive by this task.
            while let loop = self?.loop {
                do {
                    let next = try await mirror.nextChange(after: seen)
                    guard next != seen else { continue }
                    try await mirror.sync()
                    seen = next
                    loop.post { [weak self] in self?.reload(development: mirror.folder, servedAt: mirror.url) }
                } catch {
                    loop.post { [weak self] in self?.problem("\(url.absoluteString): \(error) (retrying)") }
                    try? await Task.sleep(nanoseconds: 1_000_000_000)
                }
            }
        }
    }

    /// Runs the edited bundle in place of the running one, on the screen that was on top, like
    /// Fast Refresh: the app store and that screen's state stay. An edit that breaks the
    /// manifest, a screen or a script's syntax is shown on the status line at once, named by
    /// its served URL, and the running version (its scripts included) stays; a script that
    /// throws while starting is reported and the screens still open.
    func reload(development path: String, servedAt url: URL) {
        let opened = BundleFolder.open(path)
        guard let bundle = opened.value, !opened.hasErrors else {
            return problem(opened.formattedDiagnostics.first { _ in true } ?? "\(path): the bundle cannot run")
        }
        // Named as served, so the message points at the file being edited.
        let served = { (text: String) in text.replacingOccurrences(of: FileSystem.join(bundle.path, ""), with: url.absoluteString) }
        let theme = BundleTheme.load(bundle)
        if let theme, let error = zip(theme.diagnostics, theme.formattedDiagnostics).first(where: { $0.0.severity == .error }) {
            return problem(served(error.1))
        }
        for name in bundle.manifest.screens.keys.sorted() {
            guard let relative = bundle.manifest.screens[name], let screenPath = bundle.screenPath(named: name),
                  let bytes = FileBytes.read(screenPath) else { continue }
            let source = SourceText(name: url.absoluteString + relative, bytes: bytes)
            if let error = ScreenDocument.load(source, theme: theme?.styles ?? NamedStyles(), decoding: .whole).diagnostics.first(where: { $0.severity == .error }) {
                return problem(error.formatted(in: source))
            }
        }
        if let error = ScriptRuntime.syntaxErrors(inScriptsAt: bundle.scriptPaths, loop: loop).first {
            return problem(served(error.report))
        }
        let top = currentScreen.map { (name: $0.name, params: $0.state.value(atPath: "params")?.objectValue ?? JSONObject(), state: $0.state) }
        unloadBundle()
        do {
            try load(bundle: bundle, unsignedWarning: nil, keepingStore: true)
        } catch {
            problem(served(error.description))
        }
        if let top, top.name != currentScreen?.name, navigation.router.source(of: top.name, params: top.params) != nil {
            try? push(url: Router.url(of: top.name, params: top.params), replacing: !screens.isEmpty)
        }
        if let top, let screen = currentScreen, screen.name == top.name {
            // What the screen gathered stays; members the edit added keep their first values.
            screen.state = screen.state.merging(top.state)
        }
    }

    /// Loads a bundle folder: routes its screens, grants what its manifest asks, runs its
    /// `patches` and its `entry` script, then opens its `start` screen (unless the script
    /// already showed one). A bundle without `entry` is ready once its start screen opened.
    public func load(bundle folder: BundleFolder) throws(AppError) {
        try load(bundle: folder, unsignedWarning: Self.unsignedWarning(folder.path))
    }

    private static func unsignedWarning(_ path: String) -> String {
        "\(path): a development bundle (no \(BundleFolder.signatureName)); it runs unsigned"
    }

    /// `load(bundle:)`, saying `unsignedWarning` (when there is one) for an unsigned folder; the
    /// app store starts from the manifest's `store` unless `keepingStore` (a live reload).
    func load(bundle folder: BundleFolder, unsignedWarning: String?, keepingStore: Bool = false) throws(AppError) {
        let manifest = folder.manifest
        if !folder.isSigned, let unsignedWarning { log(unsignedWarning) }
        if !keepingStore { store.reset(to: manifest.store) }
        navigation.router.folder = folder.path
        navigation.router.onlyListedFiles = true
        if let theme = BundleTheme.load(folder) { useTheme(theme) }
        for name in manifest.screens.keys {
            guard let path = folder.screenPath(named: name) else { throw AppError("\(folder.path): the screen \"\(name)\" has no usable path") }
            navigation.router.files[name] = path
        }
        let httpCache = FileSystem.join(FileSystem.join(bundleSettings.cache.root, manifest.app), "http")
        try BundleAPIs.register(for: folder, secrets: bundleSettings.secrets, cacheFolder: httpCache,
                                outboxFolder: AppDataFolder.path(for: manifest.app).map { FileSystem.join($0, "outbox") },
                                trace: bundleSettings.traceNetwork,
                                report: { [weak self] line in
                                    guard let app = self else { return }
                                    app.loop.post { app.log(line) }
                                }, in: services)
        database = try BundleDatabase.register(for: folder, settingAside: boot.watchesAnInstalledStart, trace: bundleSettings.traceDatabase, in: services)
        if let database {
            BundleDatabase.registerWatches(on: database, watches: scripting.databaseWatches, in: services,
                                           post: { [loop] job in loop.post(job) }) { [weak self] id, result in
                switch result {
                case .success(let rows):
                    self?.scripts?.deliverQueryResult(watch: id, rows: .array(rows), error: .null)
                case .failure(let error):
                    self?.scripts?.deliverQueryResult(watch: id, rows: .null, error: .object(JSONObject([("code", .string("E_SQL")), ("message", .string(error.message))])))
                }
            }
        }
        // Starting the scripts waits for the engine's context, made on its own thread meanwhile:
        // the start screen, which the entry script is most likely to leave open, loads first.
        if manifest.entry != nil, let start = Router.target(manifest.start) { navigation.router.prepare(start.name) }
        let runtime = scripting.start(as: ServiceCaller(name: manifest.app, permissions: Set(manifest.permissions)))
        // A development bundle's errors while it starts show whole, over the screen.
        if folder.isSigned { overlays.console.startEnded() } else { overlays.console.watchStart() }
        runtime.onReady = { [weak self] in
            self?.overlays.console.startEnded()
            self?.boot.scriptIsReady()
        }
        let report = runtime.onError
        runtime.onError = { [weak self] error in
            report(error)
            self?.overlays.console.scriptFailed(error.report)
            self?.boot.scriptFailed(error.report)
        }
        for patch in manifest.patches {
            guard let path = folder.filePath(for: patch) else { throw AppError("\(folder.path): the patch \"\(patch)\" is not a usable path") }
            guard runtime.runMain(path: path) else { throw AppError("\(path): the bundle's patch failed while starting") }
        }
        if let entry = manifest.entry {
            guard let path = folder.filePath(for: entry) else { throw AppError("\(folder.path): the entry \"\(entry)\" is not a usable path") }
            guard runtime.runMain(path: path) else { throw AppError("\(path): the bundle's script failed while starting") }
        }
        if screens.isEmpty {
            try push(url: manifest.start.hasPrefix("app://") ? manifest.start : "app://" + manifest.start)
        }
        if manifest.entry == nil { boot.startScreenOpened() }
    }

    /// Makes `theme` the named styles every screen opened from now on starts from; its
    /// problems are reported like a screen's (the styles that fit still apply).
    func useTheme(_ theme: Loaded<NamedStyles>) {
        for (diagnostic, line) in zip(theme.diagnostics, theme.formattedDiagnostics) {
            if diagnostic.severity == .error {
                openedDocumentWithErrors = true
                problem(line)
            } else {
                log(line)
            }
        }
        navigation.router.theme = theme.styles
    }

    /// Forgets everything a bundle brought: its scripts (and so their patches), screens,
    /// handlers and routes; the host's own routes and services stay.
    func unloadBundle() {
        scripting.stop()
        navigation.reset()
        status = nil
        needsFrame = true
    }
}
