import CJavaScriptCore
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
    static let sourceURL = "hybrid:ui"

    /// `ui.*` and `state.*` on the app's natives.
    static let globals = #"""
    (function (native) {
      'use strict';
      const ui = {
        show(target) { native.show(target, false); },
        push(target) { native.show(target, true); },
        back() { native.back(); },
        update(id, props) {
          if (props === null || typeof props !== 'object') throw new TypeError('ui.update(id, props): props must be an object');
          native.update(String(id), props);
        },
        component(name, fn) {
          if (typeof fn !== 'function') throw new TypeError('ui.component(name, fn): fn must be a function');
          native.component(String(name), fn);
        },
        handler(name, fn) {
          if (typeof fn !== 'function') throw new TypeError('ui.handler(name, fn): fn must be a function');
          native.handler(String(name), fn);
        },
        get screen() { return native.screen(); },
      };
      const state = {
        get(path) { return native.get(path === undefined ? '' : String(path)); },
        set(path, value) { native.set(String(path), value === undefined ? null : value); },
        watch(path, fn) {
          if (typeof fn !== 'function') throw new TypeError('state.watch(path, fn): fn must be a function');
          native.watch(String(path), fn);
        },
      };
      Object.defineProperty(globalThis, 'ui', { value: Object.freeze(ui), enumerable: false });
      Object.defineProperty(globalThis, 'state', { value: Object.freeze(state), enumerable: false });
    })
    """#

    /// Starts scripting: a runtime on the app's loop with the `ui` and `state` globals.
    func startScripts(caller: ServiceCaller) -> ScriptRuntime {
        let runtime = ScriptRuntime(services: services, caller: caller, loop: loop)
        runtime.onError = { [weak self] error in self?.problem(error.report) }
        runtime.install(Self.globals, sourceURL: Self.sourceURL, natives: natives(for: runtime))
        scripts = runtime
        return runtime
    }

    private func natives(for runtime: ScriptRuntime) -> [String: HostFunctionBody] {
        let context = runtime.context
        return [
            "show": { [weak self] _, _, arguments throws(ScriptThrow) in
                guard let self, arguments.count >= 2 else { return nil }
                let target = context.json(from: arguments[0]!)
                let pushing = JSValueToBoolean(context.ref, arguments[1]!)
                var url = target.stringValue ?? ""
                if case .object(let document) = target {
                    guard let id = document["id"]?.stringValue else {
                        throw ScriptThrow(context.makeError("ui.show(screen): a screen built by a script needs an \"id\""))
                    }
                    router.built[id] = target
                    url = "app://" + id
                }
                do throws(AppError) {
                    try push(url: url, replacing: !pushing)
                } catch {
                    throw ScriptThrow(context.makeError(error.description))
                }
                return nil
            },
            "back": { [weak self] _, _, _ in
                self?.back()
                return nil
            },
            "handler": { [weak self] _, _, arguments in
                guard let self, arguments.count >= 2 else { return nil }
                handlers[context.string(arguments[0]!)] = ProtectedValue(arguments[1]!, in: context)
                return nil
            },
            "update": { [weak self] _, _, arguments throws(ScriptThrow) in
                guard let self, let screen = currentScreen, arguments.count >= 2,
                      case .object(let props) = context.json(from: arguments[1]!) else { return nil }
                let problems = screen.update(id: context.string(arguments[0]!), props: props)
                guard problems.isEmpty else { throw ScriptThrow(context.makeError(problems.joined(separator: "\n"))) }
                needsFrame = true
                return nil
            },
            "component": { [weak self] _, _, arguments in
                guard let self, arguments.count >= 2 else { return nil }
                components[context.string(arguments[0]!)] = ProtectedValue(arguments[1]!, in: context)
                componentNodes.removeAll()
                needsFrame = true
                return nil
            },
            "screen": { [weak self] _, _, _ in
                guard let screen = self?.currentScreen else { return JSValueMakeNull(context.ref) }
                return context.makeString(screen.document.id)
            },
            "get": { [weak self] _, _, arguments in
                guard let screen = self?.currentScreen else { return JSValueMakeNull(context.ref) }
                let path = arguments.first.map { context.string($0!) } ?? ""
                return context.makeValue((path.isEmpty ? screen.state : screen.state.value(atPath: path)) ?? .null)
            },
            "set": { [weak self] _, _, arguments in
                guard let self, let screen = currentScreen, arguments.count >= 2 else { return nil }
                setState(context.string(arguments[0]!), to: context.json(from: arguments[1]!), on: screen)
                return nil
            },
            "watch": { [weak self] _, _, arguments in
                guard let self, arguments.count >= 2 else { return nil }
                // A watcher belongs to the screen on top when it is registered; one registered
                // while the app starts (no screen yet) watches whichever screen is on top.
                watchers.append(Watcher(path: context.string(arguments[0]!), callback: ProtectedValue(arguments[1]!, in: context),
                                        screen: currentScreen))
                return nil
            },
        ]
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
