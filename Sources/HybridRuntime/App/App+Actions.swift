import HybridDocument
import HybridEventLoop
import HybridExpressions
import HybridJSON
import HybridServices
import HybridWidgets

/// Running actions (SPEC §2): built-in ones here, script handlers through the bridge.
extension HybridApp {
    /// Runs `action` for `view` (nil for screen keys and `onAppear`) with `event` for handlers;
    /// `scope` adds variables the view does not have (a table row's `index` and `row`). Answers
    /// whether it did what it says: a sequence stops at its first step that failed (reported),
    /// so a later step never acts on a premise that did not happen (clearing a field whose
    /// text a missing handler never saved). A `call` succeeds once sent; its answer comes later.
    @discardableResult
    func run(_ action: Action, on screen: Screen, view: View?, scope extra: StateScope? = nil, event: JSONValue) -> Bool {
        let scope = (extra ?? view?.scope ?? StateScope(state: screen.state)).with(state: screen.state, store: store.value)
        switch action {
        case .handler(let name):
            return scripting.callHandler(name, event: event, on: screen)
        case .script(let name, let args):
            var argument = event
            if let args {
                guard let value = evaluate(args, in: scope, screen: screen) else { return false }
                argument = value
            }
            return scripting.callHandler(name, event: argument, on: screen)
        case .set(let path, let value):
            guard let target = statePath(path, in: scope, screen: screen),
                  let value = evaluate(value, in: scope, screen: screen) else { return false }
            return setState(target, to: value, on: screen)
        case .call(let service, let params, let result):
            var parameters = JSONValue.null
            if let params {
                guard let value = evaluate(params, in: scope, screen: screen) else { return false }
                parameters = value
            }
            var target: String?
            if let result {
                guard let path = statePath(result, in: scope, screen: screen) else { return false }
                target = path
            }
            call(service, parameters: parameters, storingAt: target, on: screen)
            return true
        case .navigate(let url):
            guard let url = evaluate(url, in: scope, screen: screen)?.stringValue else { return false }
            do throws(AppError) {
                try push(url: url)
                return true
            } catch {
                problem(error.description)
                return false
            }
        case .back:
            back()
            return true
        case .quit:
            quit()
            return true
        case .reload(let data, let nextPage):
            return dataLoader.reload(data, nextPage: nextPage, on: screen)
        case .described(let action, _):
            return run(action, on: screen, view: view, scope: extra, event: event)
        case .sequence(let actions):
            for action in actions where !isFinished {
                // Each step sees what the previous ones changed; after a step that changes
                // screens, the rest act on the screen now on top.
                guard let current = currentScreen else { return true }
                guard run(action, on: current, view: current === screen ? view : nil, scope: current === screen ? extra : nil, event: event) else {
                    return false
                }
            }
            return true
        }
    }

    func evaluate(_ value: PropertyValue, in scope: StateScope, screen: Screen) -> JSONValue? {
        do throws(PropertyValue.Failure) {
            return try value.value(in: scope)
        } catch {
            problem(Diagnostic(offset: error.location.offset, path: error.location.path, message: error.error.message).formatted(in: screen.source))
            return nil
        }
    }

    /// The state path an action writes: `@{…}` parts evaluated, list items and props mapped.
    func statePath(_ written: String, in scope: StateScope, screen: Screen) -> String? {
        var path = written
        if written.contains("@{") {
            do {
                path = try ExpressionTemplate(parsing: written).evaluateString(in: scope)
            } catch {
                problem("\(screen.source.name): state path \(DiagnosticText.quoted(written)): \(error.message)")
                return nil
            }
        }
        guard let target = scope.statePath(of: path) else {
            // `item.x` where the item is not in the state (a literal list, a computed prop).
            problem("\(screen.source.name): cannot set \(DiagnosticText.quoted(written)): it names a value that is not in the screen's state")
            return nil
        }
        return target
    }

    /// Calls a service for a `call` action; its answer goes to `target` when it comes. Like a
    /// script's call, it ends: the service's own timeout (30 s by default) reports E_TIMEOUT.
    /// When a script patched `service:NAME`, the call goes through its hooks, as a script's would.
    func call(_ service: String, parameters: JSONValue, storingAt target: String?, on screen: Screen) {
        let settle: @Sendable (Result<JSONValue, ServiceError>) -> Void = { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let value):
                if let target { setState(target, to: value, on: screen) }
            case .failure(let error):
                problem("\(error.code.rawValue): \(error.message) (a call action of \(screen.name))")
            }
        }
        // The script side bounds the call with the same timeout, and counts it as work in flight.
        if let scripts, scripts.hasHooks(on: "service:" + service),
           scripts.callService(service, parameters: parameters, completion: settle) {
            return
        }
        // A sync service runs here, on the loop thread, like a script's call (it may call into
        // scripts: a patchable function); async work starts here too and goes on off the loop
        // once it waits, bounded by the service's timeout, as a script's async call does. The
        // answer is set on the loop's next turn, after the action that asked.
        let started = actionCalls.call(service, parameters: parameters, caller: scripting.caller, in: services, timeout: nil) { settle }
        guard case .answered(let answered) = started else { return }
        loop.beginWork()
        loop.post { [loop] in
            loop.endWork()
            settle(answered)
        }
    }
}
