import HybridBridge
import HybridJSON
import HybridJavaScript
import HybridDocument
import HybridServices
import HybridWidgets

/// A `state.watch` callback and the screen it watches (any screen on top when it was
/// registered before the first one opened).
final class Watcher {
    let path: String
    let callback: ProtectedValue
    let watchesAnyScreen: Bool
    weak var screen: Screen?
    var isRunning = false

    init(path: String, callback: ProtectedValue, screen: Screen?) {
        self.path = path
        self.callback = callback
        self.screen = screen
        watchesAnyScreen = screen == nil
    }

    func watches(_ candidate: Screen, top: Screen?) -> Bool {
        watchesAnyScreen ? candidate === top : candidate === screen
    }
}

/// The app's side of scripting: the `ui` and `state` globals (SPEC §3) and handlers.
extension HybridApp {
    /// Starts scripting: a runtime on the app's loop with the `ui` and `state` globals.
    func startScripts(caller: ServiceCaller) -> ScriptRuntime {
        let runtime = ScriptRuntime(services: services, caller: caller, loop: loop)
        runtime.onError = { [weak self] error in self?.problem(error.report) }
        runtime.installUI(uiNatives())
        scripts = runtime
        return runtime
    }

    private func uiNatives() -> UINatives {
        UINatives(
            show: { [weak self] target, pushing throws(NativeError) in
                guard let self else { return }
                var url = target.stringValue ?? ""
                if case .object(let document) = target {
                    guard let id = document["id"]?.stringValue else {
                        throw NativeError("ui.show(screen): a screen built by a script needs an \"id\"")
                    }
                    router.built[id] = target
                    url = "app://" + id
                }
                do throws(AppError) {
                    try push(url: url, replacing: !pushing)
                } catch {
                    throw NativeError(error.description)
                }
            },
            back: { [weak self] in self?.back() },
            update: { [weak self] id, props throws(NativeError) in
                guard let self, let screen = currentScreen, case .object(let props) = props else { return }
                let problems = screen.update(id: id, props: props)
                guard problems.isEmpty else { throw NativeError(problems.joined(separator: "\n")) }
                needsFrame = true
            },
            component: { [weak self] name, build in
                guard let self else { return }
                components[name] = build
                componentNodes.removeAll()
                needsFrame = true
            },
            handler: { [weak self] name, function in self?.handlers[name] = function },
            screen: { [weak self] in self?.currentScreen?.document.id },
            get: { [weak self] path in
                guard let screen = self?.currentScreen else { return .null }
                return (path.isEmpty ? screen.state : screen.state.value(atPath: path)) ?? .null
            },
            set: { [weak self] path, value in
                guard let self, let screen = currentScreen else { return }
                setState(path, to: value, on: screen)
            },
            watch: { [weak self] path, callback in
                // A watcher belongs to the screen on top when it is registered; one registered
                // while the app starts (no screen yet) watches whichever screen is on top.
                guard let self else { return }
                watchers.append(Watcher(path: path, callback: callback, screen: currentScreen))
            }
        )
    }

    /// The node a script component builds for `props` (kept per name and props, so a frame
    /// calls into JavaScript only for components whose props changed).
    func scriptComponent(_ name: String, props: JSONValue, on screen: Screen) -> Node? {
        guard let scripts, let builder = components[name] else { return nil }
        let key = name + "\u{0}" + props.jsonText
        // Failures are kept too: a broken component is reported once, not on every frame.
        if let node = componentNodes[key] { return node }
        guard case .success(let json) = scripts.invoke(builder, as: "the component \(name)", with: [props]) else {
            componentNodes[key] = .some(nil)
            return nil
        }
        let source = SourceText(name: "ui.component(\(name))", text: json.jsonText)
        let (node, diagnostics) = ScreenDocument.loadNode(source)
        for diagnostic in diagnostics { problem(diagnostic.formatted(in: source)) }
        if componentNodes.count > 512 { componentNodes.removeAll() }
        componentNodes[key] = node
        return node
    }

    /// Runs the script handler `name` (registered with `ui.handler`) with `event`, through the
    /// hooks a script put on `handler:NAME`.
    func callHandler(_ name: String, event: JSONValue, on screen: Screen) {
        guard let scripts, let handler = handlers[name] else {
            problem("no script handler named \"\(name)\" (\(screen.name)); register it with ui.handler(\"\(name)\", fn)")
            return
        }
        scripts.invoke(handler, patchedAs: "handler:" + name, as: "the handler \(name)", with: [event])
        needsFrame = true
    }

    /// Tells the screen's `state.watch` callbacks whose path is `path`, inside it, or around
    /// it; a watcher already running is not entered again.
    func notifyWatchers(of path: String, on screen: Screen) {
        guard let scripts else { return }
        for watcher in watchers where watcher.watches(screen, top: currentScreen) && !watcher.isRunning
            && (watcher.path == path || path.hasPrefix(watcher.path + ".") || watcher.path.hasPrefix(path + ".")) {
            let value = screen.state.value(atPath: watcher.path) ?? .null
            watcher.isRunning = true
            scripts.invoke(watcher.callback, as: "the watcher of \(watcher.path)", with: [value, .string(path)])
            watcher.isRunning = false
        }
    }
}
