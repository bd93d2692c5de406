import HybridBridge
import HybridDocument
import HybridJSON
import HybridJavaScript
import HybridServices
import HybridWidgets

/// The app's side of scripting (SPEC §3): the running `ScriptRuntime`, who its scripts are, and
/// what they registered — `ui.handler` handlers, `ui.component` builders (and the nodes they
/// built), `state.watch` watchers — with the `ui` and `state` globals that reach the app.
///
/// Everything a bundle's scripts brought goes with `stop()`. Used on the app's loop thread only.
final class ScriptHost {
    private unowned let app: HybridApp
    /// The running scripts, nil before a bundle starts them or after it is unloaded.
    private(set) var runtime: ScriptRuntime?
    /// Who the scripts are, for permission checks (the host until a bundle runs).
    private(set) var caller = ServiceCaller.host
    private var handlers: [String: ProtectedValue] = [:]
    private var components: [String: ProtectedValue] = [:]
    /// Nodes built by script components, by name and props; nil records a failure.
    private var componentNodes: [String: Node?] = [:]
    private var watchers: [Watcher] = []
    /// The scripts' `db.watch`es.
    let databaseWatches = DatabaseWatches()
    /// The id of the last watcher registered.
    private var lastWatcherID = 0

    init(app: HybridApp) {
        self.app = app
    }

    /// Starts scripting as `caller`: a runtime on the app's loop with the `ui` and `state` globals.
    func start(as caller: ServiceCaller) -> ScriptRuntime {
        let runtime = ScriptRuntime(services: app.services, caller: caller, loop: app.loop)
        runtime.onError = { [weak app] error in app?.problem(error.report) }
        // Console lines go where they always went (the log) and to the developer console.
        let log = runtime.console
        runtime.console = { [weak app] level, text in
            log(level, text)
            app?.consoleLine(level, text)
        }
        runtime.installUI(uiNatives())
        self.caller = caller
        self.runtime = runtime
        return runtime
    }

    /// Forgets everything the scripts brought and shuts their runtime down.
    func stop() {
        app.overlays.removeScriptOverlays()
        watchers.removeAll()
        databaseWatches.removeAll()
        handlers.removeAll()
        components.removeAll()
        componentNodes.removeAll()
        runtime?.shutdown()
        runtime = nil
        caller = .host
    }

    // MARK: What the app asks of scripts

    /// The node a script component builds for `props` (kept per name and props, so a frame
    /// calls into JavaScript only for components whose props changed).
    func component(_ name: String, props: JSONValue) -> Node? {
        guard let runtime, let builder = components[name] else { return nil }
        let key = name + "\u{0}" + props.jsonText
        // Failures are kept too: a broken component is reported once, not on every frame.
        if let node = componentNodes[key] { return node }
        guard case .success(let json) = runtime.invoke(builder, as: "the component \(name)", with: [props]) else {
            componentNodes[key] = .some(nil)
            return nil
        }
        let source = SourceText(name: "ui.component(\(name))", text: json.jsonText)
        let (node, diagnostics) = ScreenDocument.loadNode(source, theme: app.navigation.router.theme)
        for line in diagnostics.formatted(in: source) { app.problem(line) }
        if componentNodes.count > 512 { componentNodes.removeAll() }
        componentNodes[key] = node
        return node
    }

    /// Runs the script handler `name` (registered with `ui.handler`) with `event`, through the
    /// hooks a script put on `handler:NAME`; false when there is none or it threw (reported).
    @discardableResult
    func callHandler(_ name: String, event: JSONValue, on screen: Screen) -> Bool {
        guard let runtime, let handler = handlers[name] else {
            app.problem("no script handler named \"\(name)\" (\(screen.name)); register it with ui.handler(\"\(name)\", fn)")
            return false
        }
        let result = runtime.withCallOwner(ObjectIdentifier(screen)) {
            runtime.invoke(handler, patchedAs: "handler:" + name, as: "the handler \(name)", with: [event])
        }
        app.needsFrame = true
        if case .failure = result { return false }
        return true
    }

    /// Tells the screen's `state.watch` callbacks whose path is `path`, inside it, or around
    /// it; a watcher already running is not entered again.
    func notifyWatchers(of path: String, on screen: Screen) {
        guard let runtime else { return }
        for watcher in watchers where watcher.screen === screen && !watcher.isRunning && watcher.overlaps(path) {
            let value = screen.state.value(atPath: watcher.path) ?? .null
            watcher.isRunning = true
            runtime.invoke(watcher.callback, as: "the watcher of \(watcher.path)", with: [value, .string(path)])
            watcher.isRunning = false
        }
    }

    /// Tells the `store.watch` callbacks whose value changed when the store at `path` did,
    /// with the value they watch now and the one it had in `before`.
    func notifyStoreWatchers(of path: String, before: JSONValue) {
        guard let runtime else { return }
        for watcher in watchers where watcher.watchesStore && !watcher.isRunning && watcher.overlaps(path) {
            let value = app.store.value(at: watcher.path)
            let previous = (watcher.path.isEmpty ? before : before.value(atPath: watcher.path)) ?? .null
            guard value != previous else { continue }
            watcher.isRunning = true
            runtime.invoke(watcher.callback, as: "the store watcher of \(watcher.path)", with: [value, previous])
            watcher.isRunning = false
        }
    }

    /// Drops the watchers and the calls in flight of screens no longer open (they go with
    /// their screen).
    func screensClosed(keeping open: [Screen]) {
        // Their calls go with them too (SPEC §7.2).
        runtime?.cancelCalls(keepingOwners: Set(open.map(ObjectIdentifier.init)))
        watchers.removeAll { watcher in
            guard !watcher.watchesStore else { return false }
            guard let watched = watcher.screen else { return true }
            return !open.contains { $0 === watched }
        }
    }

    // MARK: The `ui`, `state` and `store` globals

    private func uiNatives() -> UINatives {
        UINatives(
            show: { [unowned self] target, pushing throws(NativeError) in
                var url = target.stringValue ?? ""
                if case .object(let document) = target {
                    guard let id = document["id"]?.stringValue else {
                        throw NativeError("ui.show(screen): a screen built by a script needs an \"id\"")
                    }
                    app.navigation.router.built[id] = target
                    url = "app://" + id
                }
                do throws(AppError) {
                    try app.push(url: url, replacing: !pushing)
                } catch {
                    throw NativeError(error.description)
                }
            },
            back: { [unowned self] in app.back() },
            update: { [unowned self] id, props throws(NativeError) in
                guard let screen = app.currentScreen, case .object(let props) = props else { return }
                let problems = screen.update(id: id, props: props)
                guard problems.isEmpty else { throw NativeError(problems.joined(separator: "\n")) }
                app.needsFrame = true
            },
            component: { [unowned self] name, build in
                components[name] = build
                componentNodes.removeAll()
                app.needsFrame = true
            },
            handler: { [unowned self] name, function in handlers[name] = function },
            screen: { [unowned self] in app.currentScreen?.document.id },
            get: { [unowned self] path in
                guard let screen = app.currentScreen else { return .null }
                return (path.isEmpty ? screen.state : screen.state.value(atPath: path)) ?? .null
            },
            set: { [unowned self] path, value in
                guard let screen = app.currentScreen else { return }
                app.setState(path, to: value, on: screen)
            },
            watch: { [unowned self] path, callback in
                // ui.js refuses it while no screen is open: a watcher belongs to the screen on top.
                guard let screen = app.currentScreen else { return 0 }
                return addWatcher(path: path, callback: callback, screen: screen)
            },
            storeGet: { [unowned self] path in app.store.value(at: path) },
            storeSet: { [unowned self] path, value throws(NativeError) in
                if case .refused(let reason) = app.setStore(path, to: value) { throw NativeError("store.set: " + reason) }
            },
            storeWatch: { [unowned self] path, callback in addWatcher(path: path, callback: callback, screen: nil) },
            unwatch: { [unowned self] id in watchers.removeAll { $0.id == id } },
            dialog: { [unowned self] title, text, buttons, done in
                let list = (buttons.arrayValue ?? []).compactMap { button -> DialogBox.Button? in
                    guard let id = button["id"]?.stringValue else { return nil }
                    return DialogBox.Button(id: id, label: button["label"]?.stringValue ?? id)
                }
                app.openDialog(DialogBox(title: title, text: text, buttons: list)) { [weak self] choice in
                    _ = self?.runtime?.invoke(done, as: "the answer of ui.dialog", with: [choice.map(JSONValue.string) ?? .null])
                }
            },
            toast: { [unowned self] text, level, milliseconds in
                app.showToast(text, level: Toasts.Level(rawValue: level) ?? .info, milliseconds: milliseconds)
            }
        )
    }

    /// Registers a watcher of `screen`'s state, or of the app store when `screen` is nil.
    private func addWatcher(path: String, callback: ProtectedValue, screen: Screen?) -> Int {
        lastWatcherID += 1
        watchers.append(Watcher(id: lastWatcherID, path: path, callback: callback, screen: screen))
        return lastWatcherID
    }
}
