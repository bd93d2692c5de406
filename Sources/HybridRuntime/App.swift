import Foundation
import HybridBridge
import HybridBundles
import HybridCells
import HybridDocument
import HybridEventLoop
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
    /// Screens, the current one last.
    public internal(set) var screens: [Screen] = []
    /// The frame size in cells.
    public var size = TerminalSize.standard {
        didSet { needsFrame = true }
    }
    /// Set when the app asked to end (a `quit` action, Ctrl-C).
    public private(set) var isFinished = false
    /// Whether something changed since the last frame.
    public internal(set) var needsFrame = true {
        didSet {
            // Timers, service answers and scripts change state between keys: tell the driver.
            if needsFrame && !oldValue && !isRendering { onFrameNeeded() }
        }
    }
    /// Called when a frame becomes due outside of input handling (a timer or an async answer
    /// changed something); the terminal driver schedules a frame.
    public var onFrameNeeded: () -> Void = {}
    var isRendering = false
    /// Where problems go besides the status line (errors of scripts, actions and bindings).
    public var onProblem: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    /// The last problem, shown on the bottom row until the next key.
    public internal(set) var status: String?

    var router = Router()
    var scripts: ScriptRuntime?
    var handlers: [String: ProtectedValue] = [:]
    var components: [String: ProtectedValue] = [:]
    /// Nodes built by script components, by name and props; nil records a failure.
    var componentNodes: [String: Node?] = [:]
    var watchers: [Watcher] = []
    var caller = ServiceCaller.host

    /// The keys whose signatures `load(bundle:)` accepts for archives, URLs and signed folders.
    public var trustedKeys: [BundlePublicKey] = []
    /// Where `load(bundle:)` installs archives and downloads.
    public var bundleCache = BundleCache.standard()
    /// How long a new version may take to call `hybrid.ready()` before it is marked bad.
    public var readyTimeout: Double {
        get { boot.readyTimeout }
        set { boot.readyTimeout = newValue }
    }
    /// Seconds of network silence before a download is given up (and what is installed runs).
    public var downloadTimeout = 10.0
    /// Told of a download's progress, `(received, expected)` bytes.
    public var downloadProgress: (@Sendable (Int, Int?) -> Void)?
    /// Set when the app ended because nothing it was given could start.
    public var failure: AppError? { boot.failure }
    /// Starts bundles under watch and falls back when one fails.
    private(set) lazy var boot = BootSupervisor(app: self)
    /// The router as the host set it up, restored when a failed bundle is unloaded.
    var hostRouter: Router?

    /// Focus on each frame: first, neighbour, revealed.
    let focus = FocusKeeper()
    /// Keys, pastes and the mouse, routed to widgets and screen keys.
    private lazy var input = InputRouter(app: self, focus: focus)

    /// An app with no screen yet.
    public init(loop: EventLoop = EventLoop(), services: ServiceRegistry = ServiceRegistry()) {
        self.loop = loop
        self.services = services
    }

    /// Handles one input event (SPEC §2 "Focus and keys").
    public func handle(_ event: InputEvent) {
        input.handle(event)
    }

    /// The screen on top.
    public var currentScreen: Screen? { screens.last }

    // MARK: Opening screens

    /// Opens a screen file as the first screen; screens it navigates to by name are the
    /// `.json` files beside it.
    public func open(file path: String) throws(AppError) {
        router.folder = (path as NSString).deletingLastPathComponent
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        router.files[name] = path
        try push(url: "app://" + name, replacing: true)
    }

    /// Opens `url` (`app://NAME?query`) on top of the current screen, or in its place.
    public func push(url: String, replacing: Bool = false) throws(AppError) {
        guard let target = Router.target(url) else { throw AppError("cannot open \"\(url)\": expected app://SCREEN?key=value") }
        guard let source = router.source(of: target.name, params: target.params) else {
            throw AppError("cannot open \"\(url)\": no screen named \"\(target.name)\"")
        }
        let load = ScreenDocument.load(source)
        guard let document = load.value else { throw AppError(load.formattedDiagnostics) }
        // Warnings go to the log, not the status line; with scripts running, an unknown
        // component is expected to come from `ui.component`, so it is not even a warning.
        for diagnostic in load.diagnostics {
            if diagnostic.severity == .error {
                problem(diagnostic.formatted(in: source))
            } else if scripts == nil || !diagnostic.message.hasPrefix("unknown component") {
                onProblem(diagnostic.formatted(in: source))
            }
        }
        let screen = Screen(name: target.name, document: document, source: source, params: target.params)
        screen.externalComponents = { [unowned self, unowned screen] name, props in scriptComponent(name, props: props, on: screen) }
        if replacing, !screens.isEmpty {
            screens.removeLast()
            dropWatchersOfClosedScreens()
        }
        screens.append(screen)
        needsFrame = true
        if let onAppear = document.onAppear { run(onAppear, on: screen, view: nil, event: .null) }
    }

    /// Registers a native screen: `build` makes its document (a screen JSON object) from the
    /// query parameters of the URL that opens it, so Swift screens open through the same router.
    public func registerScreen(_ name: String, build: @escaping @Sendable (JSONObject) -> JSONValue) {
        router.native[name] = build
    }

    /// Returns to the previous screen (nothing happens on the first).
    public func back() {
        guard screens.count > 1 else { return }
        screens.removeLast()
        // Watchers of a closed screen go with it.
        dropWatchersOfClosedScreens()
        needsFrame = true
        // `onAppear` runs whenever a screen comes to the top, so it can refresh what the
        // screens above it changed (a cart, say).
        if let screen = currentScreen, let onAppear = screen.document.onAppear {
            run(onAppear, on: screen, view: nil, event: .null)
        }
    }

    private func dropWatchersOfClosedScreens() {
        watchers.removeAll { watcher in
            guard !watcher.watchesAnyScreen else { return false }
            guard let watched = watcher.screen else { return true }
            return !screens.contains { $0 === watched }
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
        isRendering = true
        // Problems found while rendering are drawn in this very frame; they must not ask for
        // another one, or a broken binding would redraw forever.
        defer {
            isRendering = false
            needsFrame = false
        }
        guard let screen = currentScreen else { return Buffer(width: size.columns, height: size.rows) }
        var (buffer, problems) = screen.render(width: size.columns, height: size.rows)
        for diagnostic in problems { problem(diagnostic.formatted(in: screen.source)) }
        // Focus what the first frame shows, or the neighbour of a focused widget that went
        // away, then scroll it into view; each change needs the frame drawn again.
        if focus.settle(on: screen) { (buffer, _) = screen.render(width: size.columns, height: size.rows) }
        if focus.reveal(on: screen) { (buffer, _) = screen.render(width: size.columns, height: size.rows) }
        if let status, size.rows > 0 {
            let row = size.rows - 1
            buffer.fill(Rect(x: 0, y: row, width: size.columns, height: 1), style: CellStyle(foreground: .ansi(1), attributes: .reverse))
            buffer.write(status, x: 0, y: row, limit: size.columns, style: CellStyle(foreground: .ansi(1), attributes: .reverse))
        }
        return buffer
    }

    // MARK: Problems

    /// Reports a problem: on the status line and to `onProblem`; the app goes on.
    func problem(_ line: String) {
        status = line
        needsFrame = true
        onProblem(line)
    }

    // MARK: State

    /// Sets a value in a screen's state and tells its watchers (nothing when it is unchanged,
    /// so a watcher that sets its own path settles instead of recursing).
    func setState(_ path: String, to value: JSONValue, on screen: Screen) {
        guard !path.isEmpty, screen.state.value(atPath: path) != value else { return }
        if !screen.state.setValue(value, atPath: path) {
            problem("cannot set state \"\(path)\": a part of the path is not an object or an array")
            return
        }
        needsFrame = true
        notifyWatchers(of: path, on: screen)
    }
}

extension HybridApp {
    /// Advances spinners by one frame; true when the current screen shows one.
    public func tick() -> Bool {
        guard let screen = currentScreen, screen.hasSpinner else { return false }
        screen.interaction.tick += 1
        needsFrame = true
        return true
    }
}
