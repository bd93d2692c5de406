import HybridDatabase
import HybridDocument
import HybridJSON
import HybridWidgets

/// Loads screens' data blocks (SPEC §7.4): each when its screen opens and again when its
/// params' value changes (checked before every frame of the screen on top), on a `reload`
/// action, and never for a screen that closed (its calls are cancelled with it). An `api` block
/// loads through the scripts' `api.call`, so interceptors, reformers and the API's in-flight
/// policy apply. Where each block stands is the screen's `ScreenData`; its value is the
/// screen's state at the block's name. Used on the app's loop thread only.
final class DataLoader: @unchecked Sendable {
    private unowned let app: HybridApp

    init(app: HybridApp) {
        self.app = app
    }

    /// Loads the blocks of `screen` whose params changed since they last loaded (every block,
    /// the first time).
    func refresh(_ screen: Screen) {
        for block in screen.data.blocks {
            guard let params = params(of: block, on: screen), screen.data.needsLoad(block, params: params) else { continue }
            if let load = screen.data.begin(block, params: params, nextPage: false) { start(load, on: screen) }
        }
    }

    /// Loads the block `name` of `screen` again (its first page), or its next page, appended;
    /// false when the screen has no such block (reported) or its params cannot be evaluated.
    @discardableResult
    func reload(_ name: String, nextPage: Bool, on screen: Screen) -> Bool {
        guard let block = screen.data.block(named: name) else {
            let hint = Suggestion.hint(for: name, in: screen.data.blocks.map(\.name))
            app.problem("\(screen.source.name): reload: no data block named \(DiagnosticText.quoted(name)) on this screen\(hint)")
            return false
        }
        guard let params = params(of: block, on: screen) else { return false }
        // The next page after the last one is nothing to load: done, not a failure.
        if let load = screen.data.begin(block, params: params, nextPage: nextPage) { start(load, on: screen) }
        return true
    }

    private func params(of block: DataBlock, on screen: Screen) -> JSONValue? {
        let scope = StateScope(state: screen.state, store: app.store.value)
        do throws(PropertyValue.Failure) {
            return try block.params.value(in: scope)
        } catch {
            let line = Diagnostic(offset: error.location.offset, path: error.location.path, message: error.error.message).formatted(in: screen.source)
            if screen.data.noteParamsProblem(line, of: block) { app.problem(line) }
            return nil
        }
    }

    private func start(_ load: ScreenData.Load, on screen: Screen) {
        let name = load.block.name
        app.setState(name, to: screen.data.loading(load, previous: screen.state[name]), on: screen)
        if case .sql(let query) = load.block.source { return watch(query, for: load, on: screen) }
        guard let runtime = app.scripts else {
            return settle(screen.data.failure(load, code: "E_NO_SERVICE", message: "\(name): data blocks load through a bundle's scripts and apis; this screen runs without a bundle",
                                              previous: screen.state[name]), of: name, on: screen)
        }
        runtime.loadData(load.request, owner: ObjectIdentifier(screen)) { [weak self, weak screen] reply in
            guard let self, let screen else { return }
            settle(screen.data.settle(load, reply: reply, previous: screen.state[name]), of: name, on: screen)
        }
    }

    /// An `sql` block: its query watched in the app's database, the rows set now and again after
    /// every commit that changes them, until the params change or the screen closes.
    private func watch(_ query: String, for load: ScreenData.Load, on screen: Screen) {
        let name = load.block.name
        guard let database = app.database else {
            return settle(screen.data.failure(load, code: "E_NO_SERVICE", message: "\(name): an sql block needs the app's database: "
                                              + "the manifest's \"database\" or the permission \"db\"", previous: screen.state[name]), of: name, on: screen)
        }
        let loop = app.loop
        let apply = { [weak self, weak screen] (result: Result<[JSONValue], SQLError>) in
            guard let self, let screen else { return }
            let previous = screen.state[name]
            let value = switch result {
            case .success(let rows):
                screen.data.settle(load, reply: .object(JSONObject([("answer", .object(JSONObject([
                    ("data", .array(rows)), ("page", .integer(1)), ("lastPage", .bool(true)),
                ])))])), previous: previous)
            case .failure(let error):
                screen.data.failure(load, code: "E_SQL", message: error.message, previous: previous)
            }
            self.settle(value, of: name, on: screen)
        }
        // Later rows come from whichever thread committed, maybe inside a script's call: they
        // wait for the loop. The first are here now, for the frame being drawn.
        nonisolated(unsafe) let later = apply
        let watch = QueryWatch(database: database, sql: query, params: load.request["params"] ?? .null) { result in
            loop.post { later(result) }
        }
        apply(watch.first)
        screen.data.keep(watch, for: load.block)
    }

    private func settle(_ value: JSONValue?, of name: String, on screen: Screen) {
        guard let value else { return }
        app.setState(name, to: value, on: screen)
    }
}
