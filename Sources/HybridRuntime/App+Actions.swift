import HybridDocument
import HybridExpressions
import HybridJSON
import HybridServices
import HybridWidgets

/// Running actions (SPEC §2): built-in ones here, script handlers through the bridge.
extension HybridApp {
    /// Runs `action` for `view` (nil for screen keys and `onAppear`) with `event` for handlers.
    func run(_ action: Action, on screen: Screen, view: View?, event: JSONValue) {
        let scope = (view?.scope ?? StateScope(state: screen.state)).with(state: screen.state)
        switch action {
        case .handler(let name):
            callHandler(name, event: event, on: screen)
        case .script(let name, let args):
            callHandler(name, event: args.flatMap { evaluate($0, in: scope, screen: screen) } ?? event, on: screen)
        case .set(let path, let value):
            guard let target = statePath(path, in: scope, screen: screen),
                  let value = evaluate(value, in: scope, screen: screen) else { return }
            setState(target, to: value, on: screen)
        case .call(let service, let params, let result):
            let parameters = params.flatMap { evaluate($0, in: scope, screen: screen) } ?? .null
            let target = result.flatMap { statePath($0, in: scope, screen: screen) }
            call(service, parameters: parameters, storingAt: target, on: screen)
        case .navigate(let url):
            guard let url = evaluate(url, in: scope, screen: screen)?.stringValue else { return }
            do throws(AppError) {
                try push(url: url)
            } catch {
                problem(error.description)
            }
        case .back:
            back()
        case .quit:
            quit()
        case .sequence(let actions):
            for action in actions where !isFinished {
                // Each step sees what the previous ones changed.
                run(action, on: screen, view: view, event: event)
            }
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
                problem("\(screen.source.name): state path \"\(written)\": \(error.message)")
                return nil
            }
        }
        return scope.statePath(of: path) ?? path
    }

    /// Calls a service for a `call` action; its answer goes to `target` when it comes.
    func call(_ service: String, parameters: JSONValue, storingAt target: String?, on screen: Screen) {
        loop.beginWork()
        let registry = services
        let caller = caller
        Task { [loop] in
            let result = await registry.call(service, parameters: parameters, caller: caller)
            loop.post { [weak self] in
                defer { loop.endWork() }
                guard let self else { return }
                switch result {
                case .success(let value):
                    if let target { self.setState(target, to: value, on: screen) }
                case .failure(let error):
                    self.problem("\(error.code.rawValue): \(error.message) (a call action of \(screen.name))")
                }
            }
        }
    }
}
