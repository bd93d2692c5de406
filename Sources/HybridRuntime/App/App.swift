import Foundation
import HybridBridge
import HybridBundles
import HybridCells
import HybridDatabase
import HybridDocument
import HybridEventLoop
import HybridFiles
import HybridJSON
import HybridJavaScript
import HybridServices
import HybridTerminal
import HybridWidgets

/// A running HybridTerm app: a stack of screens opened through one router, the state of each,
/// focus and input, actions and script handlers, all on one event loop.
///
/// The same app runs in a terminal (`TerminalDriver`) or headless (`HeadlessDriver`, the way
/// tests drive apps); either way it is handed input events and asked for frames. It lives on
/// its loop's thread; other threads only `post` to the loop.
public final class HybridApp: @unchecked Sendable {
    /// The loop everything runs on.
    public let loop: EventLoop
    /// Native services scripts and `call` actions use.
    public let services: ServiceRegistry
    /// The frame size in cells.
    public var size = TerminalSize.standard {
        didSet { needsFrame = true }
    }
    /// Set when the app asked to end (a `quit` action, Ctrl-C).
    public private(set) var isFinished = false

    /// The app store (SPEC §3): data every screen shares, alive until the app ends.
    public let store = AppStore()
    /// The app's database (SPEC §7.3), the one its scripts use, once a bundle with `database`
    /// or the permission `db` loaded: host code writing here is seen by scripts' watches and
    /// screens' `sql` blocks like their own writes.
    public internal(set) var database: AppDatabase?
    /// Open screens and routes.
    var navigation = Navigation()
    private let frame = FrameRequest()
    private var statusLine = StatusLine()
    /// Toasts, dialogs and the developer console, over the screens.
    var overlays = Overlays()
    /// When the app began, for the console's times.
    private let startedAt: UInt64
    /// Scripts and what they registered.
    private(set) lazy var scripting = ScriptHost(app: self)
    /// Where bundles come from and how they are checked.
    var bundleSettings = BundleSettings()
    /// Starts bundles under watch and falls back when one fails.
    private(set) lazy var boot = BootSupervisor(app: self)
    /// Loads screens' data blocks.
    private(set) lazy var dataLoader = DataLoader(app: self)
    /// Keys, pastes and the mouse, routed to widgets and screen keys; focus on each frame.
    private lazy var input = InputRouter(app: self)
    /// The async service calls of `call` actions in flight.
    private(set) lazy var actionCalls = PendingCalls(loop: loop)

    /// An app with no screen yet.
    public init(loop: EventLoop = EventLoop(), services: ServiceRegistry = ServiceRegistry()) {
        self.loop = loop
        self.services = services
        startedAt = loop.clock.now
    }

    // MARK: What the host sees and sets

    /// Screens, the current one last.
    public var screens: [Screen] { navigation.screens }
    /// The screen on top.
    public var currentScreen: Screen? { navigation.screens.last }
    /// Whether something changed since the last frame.
    public internal(set) var needsFrame: Bool {
        get { frame.isNeeded }
        set { frame.isNeeded = newValue }
    }
    /// Called when a frame becomes due outside of input handling (a timer or an async answer
    /// changed something); the terminal driver schedules a frame.
    public var onFrameNeeded: () -> Void {
        get { frame.onNeeded }
        set { frame.onNeeded = newValue }
    }
    /// Where problems go besides the status line (errors of scripts, actions and bindings).
    public var onProblem: (String) -> Void {
        get { statusLine.onProblem }
        set { statusLine.onProblem = newValue }
    }
    /// The last problem, shown on the bottom row until the next key.
    public internal(set) var status: String? {
        get { statusLine.message }
        set { statusLine.message = newValue }
    }
    /// The secrets signed API services use, by name (`--secrets FILE.json`); scripts never see them.
    public var secrets: [String: String] {
        get { bundleSettings.secrets }
        set { bundleSettings.secrets = newValue }
    }
    /// Told a line per API call (`--trace net`): request id, API, cache, status, milliseconds.
    public var traceNetwork: (@Sendable (String) -> Void)? {
        get { bundleSettings.traceNetwork }
        set { bundleSettings.traceNetwork = newValue }
    }
    /// Told a line per database statement of the scripts (`--trace db`): the operation, the
    /// SQL, its outcome, milliseconds.
    public var traceDatabase: (@Sendable (String) -> Void)? {
        get { bundleSettings.traceDatabase }
        set { bundleSettings.traceDatabase = newValue }
    }
    /// The keys whose signatures `load(bundle:)` accepts for archives, URLs and signed folders.
    public var trustedKeys: [BundlePublicKey] {
        get { bundleSettings.trustedKeys }
        set { bundleSettings.trustedKeys = newValue }
    }
    /// Where `load(bundle:)` installs archives and downloads.
    public var bundleCache: BundleCache {
        get { bundleSettings.cache }
        set { bundleSettings.cache = newValue }
    }
    /// Seconds a download may take in all before it is given up and what is installed runs: a
    /// deadline for the whole download, however slowly the server keeps sending.
    public var downloadTimeout: Double {
        get { bundleSettings.downloadTimeout }
        set { bundleSettings.downloadTimeout = newValue }
    }
    /// Told of a download's progress, `(received, expected)` bytes.
    public var downloadProgress: (@Sendable (Int, Int?) -> Void)? {
        get { bundleSettings.downloadProgress }
        set { bundleSettings.downloadProgress = newValue }
    }
    /// How long a new version may take to call `hybrid.ready()` before it is marked bad.
    public var readyTimeout: Double {
        get { boot.readyTimeout }
        set { boot.readyTimeout = newValue }
    }
    /// Set when the app ended because nothing it was given could start.
    public var failure: AppError? { boot.failure }
    /// Set once a screen opened with errors in its document (reported, and drawn as far as it
    /// could be): a run that showed a broken document ends with status 1, as `render` does.
    public internal(set) var openedDocumentWithErrors = false
    /// The running scripts, if any.
    var scripts: ScriptRuntime? { scripting.runtime }

    // MARK: Input

    /// Handles one input event (SPEC §2 "Focus and keys").
    public func handle(_ event: InputEvent) {
        checkLoopThread()
        if case .key(let name) = event {
            if name == "ctrl+c" && overlays.hasDialog { return quit() }
            switch overlays.handleKey(name) {
            case .notTaken:
                break
            case .taken:
                needsFrame = true
                return
            case .dialogClosed(let done, let choice):
                needsFrame = true
                return done(choice)
            }
        } else if overlays.hasDialog {
            return
        }
        // Once someone uses the app, its errors are no longer the start's: no red box.
        overlays.console.startEnded()
        input.handle(event)
    }

    /// Told each console line and problem as it happens, e.g. to write them to a file
    /// (`hybrid run --log FILE`): seconds since the app started, what it is (`log`, `info`,
    /// `debug`, `warn`, `error` or `problem`), and its whole text.
    public var onConsoleEntry: ((Double, String, String) -> Void)? {
        didSet {
            let tell = onConsoleEntry
            overlays.console.onEntry = tell.map { tell in { entry in tell(entry.time, entry.kind.rawValue, entry.text) } }
        }
    }

    // MARK: Opening screens

    /// Opens a screen file as the first screen; screens it navigates to by name are the
    /// `.json` files beside it.
    public func open(file path: String) throws(AppError) {
        navigation.router.folder = FileSystem.parentFolder(of: path)
        let file = FileSystem.lastComponent(of: path)
        let fileExtension = FileSystem.fileExtension(of: file)
        let name = fileExtension.isEmpty ? file : String(file.dropLast(fileExtension.count + 1))
        navigation.router.files[name] = path
        if let theme = BundleTheme.enclosing(screenFile: path) { useTheme(theme) }
        try push(url: "app://" + name, replacing: true)
    }

    /// Opens `url` (`app://NAME?query`) on top of the current screen, or in its place.
    public func push(url: String, replacing: Bool = false) throws(AppError) {
        checkLoopThread()
        guard let target = Router.target(url) else { throw AppError("cannot open \"\(url)\": expected app://SCREEN?key=value") }
        guard let source = navigation.router.source(of: target.name, params: target.params) else {
            throw AppError("cannot open \"\(url)\": no screen named \"\(target.name)\"")
        }
        let theme = navigation.router.theme
        let load = navigation.router.document(of: source)
        guard let document = load.value else { throw AppError(load.formattedDiagnostics) }
        report(documentProblems: load.diagnostics, in: source)
        let screen = Screen(name: target.name, document: document, source: source, params: target.params, theme: theme)
        screen.externalComponents = { [unowned scripting] name, props in scripting.component(name, props: props) }
        if replacing, !navigation.screens.isEmpty {
            navigation.screens.removeLast()
            scripting.screensClosed(keeping: navigation.screens)
        }
        navigation.screens.append(screen)
        needsFrame = true
        if let onAppear = document.onAppear { run(onAppear, on: screen, view: nil, event: .null) }
        if currentScreen === screen { dataLoader.refresh(screen) }
    }

    /// Reports problems of a screen's document, found as it opened or (in a cold subtree) as
    /// it was first drawn. Warnings go to the log, not the status line; with scripts running,
    /// an unknown component is expected to come from `ui.component`, so it is not even a warning.
    private func report(documentProblems diagnostics: [Diagnostic], in source: SourceText) {
        for (diagnostic, line) in zip(diagnostics, diagnostics.formatted(in: source)) {
            if diagnostic.severity == .error {
                openedDocumentWithErrors = true
                problem(line)
            } else if scripts == nil || !diagnostic.message.hasPrefix("unknown component") {
                log(line)
            }
        }
    }

    /// Registers a native screen: `build` makes its document (a screen JSON object) from the
    /// query parameters of the URL that opens it, so Swift screens open through the same router.
    public func registerScreen(_ name: String, build: @escaping @Sendable (JSONObject) -> JSONValue) {
        navigation.router.native[name] = build
    }

    /// Returns to the previous screen (nothing happens on the first).
    public func back() {
        guard navigation.screens.count > 1 else { return }
        navigation.screens.removeLast()
        // Watchers of a closed screen go with it.
        scripting.screensClosed(keeping: navigation.screens)
        needsFrame = true
        // `onAppear` runs whenever a screen comes to the top, so it can refresh what the
        // screens above it changed (a cart, say).
        if let screen = currentScreen, let onAppear = screen.document.onAppear {
            run(onAppear, on: screen, view: nil, event: .null)
        }
    }

    /// Ends the app.
    public func quit() {
        isFinished = true
        loop.stop()
    }

    // MARK: Frames

    /// Draws the current screen (and the status line) into a buffer of the app's size.
    public func render() -> Buffer {
        checkLoopThread()
        // A data block whose params changed loads again; the frame shows it loading.
        if let screen = currentScreen { dataLoader.refresh(screen) }
        return frame.drawing {
            guard let screen = currentScreen else { return Buffer(width: size.columns, height: size.rows) }
            var (buffer, problems, documentProblems) = screen.render(width: size.columns, height: size.rows, store: store.value)
            // Focus what the first frame shows, or the neighbour of a focused widget that went
            // away, then scroll it into view; each change needs the frame drawn again, which
            // may draw (and report) more.
            for redraw in [input.focus.settle, input.focus.reveal] where redraw(screen) {
                let again = screen.render(width: size.columns, height: size.rows, store: store.value)
                (buffer, problems, documentProblems) = (again.buffer, problems + again.problems, documentProblems + again.documentProblems)
            }
            report(documentProblems: documentProblems, in: screen.source)
            for line in problems.formatted(in: screen.source) { problem(line) }
            statusLine.draw(into: &buffer)
            overlays.draw(into: &buffer)
            return buffer
        }
    }

    /// Advances spinners by one frame; true when the current screen shows one.
    public func tick() -> Bool {
        guard let screen = currentScreen, screen.hasSpinner else { return false }
        screen.interaction.tick += 1
        needsFrame = true
        return true
    }

    // MARK: Problems

    /// Reports a problem: on the status line and to `onProblem`; the app goes on.
    func problem(_ line: String) {
        statusLine.report(line)
        overlays.console.record(.problem, line, at: secondsSinceStart)
        needsFrame = true
    }

    /// Reports a warning (or a problem of loading, before anything shows) to `onProblem` only.
    func log(_ line: String) {
        statusLine.log(line)
        overlays.console.record(.warn, line, at: secondsSinceStart)
    }

    /// Shows `text` at the top right for `milliseconds` (`ui.toast`), the focus left where it is.
    func showToast(_ text: String, level: Toasts.Level, milliseconds: Double) {
        let id = overlays.toasts.add(text, level: level)
        needsFrame = true
        loop.schedule(after: milliseconds / 1000, keepsAlive: false) { [weak self] in
            guard let self, overlays.toasts.remove(id: id) else { return }
            needsFrame = true
        }
    }

    /// Shows `box` over the screen, after the dialogs already open (`ui.dialog`); `done` gets
    /// the chosen button's id, or nil for Esc.
    func openDialog(_ box: DialogBox, done: @escaping (String?) -> Void) {
        overlays.openDialog(box, done: done)
        needsFrame = true
    }

    /// A script's `console.*` line (`level`: log, info, debug, warn or error), for the console.
    func consoleLine(_ level: String, _ text: String) {
        overlays.console.record(DevConsole.Kind(rawValue: level) ?? .log, text, at: secondsSinceStart)
        if overlays.console.isOpen { needsFrame = true }
    }

    /// Seconds since the app began, on its loop's clock (virtual time when driven headless).
    private var secondsSinceStart: Double {
        Double(loop.clock.now &- startedAt) / 1e9
    }

    // MARK: State

    /// Sets a value in a screen's state and tells its watchers (nothing when it is unchanged,
    /// so a watcher that sets its own path settles instead of recursing). A path in the app
    /// store (`store.PATH`: the name is reserved) sets the store instead.
    /// Answers false when the path cannot be written (reported).
    @discardableResult
    func setState(_ path: String, to value: JSONValue, on screen: Screen) -> Bool {
        if let storePath = StateScope.storePath(of: path) {
            if case .refused(let reason) = setStore(storePath, to: value) {
                problem(reason)
                return false
            }
            return true
        }
        guard !path.isEmpty else {
            problem("cannot set state: the path is empty")
            return false
        }
        guard screen.state.value(atPath: path) != value else { return true }
        if !screen.state.setValue(value, atPath: path) {
            problem("cannot set state \(DiagnosticText.quoted(path)): a part of the path is not an object or an array")
            return false
        }
        needsFrame = true
        scripting.notifyWatchers(of: path, on: screen)
        return true
    }

    /// Sets a value in the app store: the screen on top is drawn again when its last frame read
    /// the changed path (the screens under it draw from the store when they come back), and
    /// the store's watchers of it are told.
    @discardableResult
    func setStore(_ path: String, to value: JSONValue) -> AppStore.Change {
        let before = store.value
        let change = store.set(path, to: value)
        guard case .changed = change else { return change }
        if currentScreen?.storeReads.contains(where: { JSONValue.pathsOverlap($0, path) }) == true { needsFrame = true }
        scripting.notifyStoreWatchers(of: path, before: before)
        return change
    }

    /// The app lives on its loop's thread: the host calls it there (or before the loop runs).
    private func checkLoopThread(_ function: StaticString = #function) {
        precondition(loop.mayTouchLoopState(), "HybridApp.\(function) called off its loop's thread")
    }
}
