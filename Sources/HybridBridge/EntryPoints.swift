import HybridJavaScript

// The other direction of Natives.swift: the functions each bridge script hands back for Swift
// to call into it, by name, checked once when the script ran.

/// What prelude.js returns: the functions Swift calls into it.
enum PreludeEntryPoint: String, CaseIterable {
    /// `dispatch(name, data, id)`: runs the handler `name` registered with
    /// `WebViewJavascriptBridge.registerHandler` on `data`; it answers through
    /// `respond({id, response})`, once, and throws what the handler threw.
    case dispatch
    /// `loadMain(path, source)`: runs `source`, the file `path`, as the main module.
    case loadMain
    /// `forgetFields()`: drops the prelude's `fields` answers (the registry changed).
    case forgetFields
    /// `serviceError(site, code, message, details?)`: a service error located where `site` (an
    /// `Error`) was made; not for Swift, handed on to data-globals.js for api.js and db.js.
    case serviceError
}

/// What data-globals.js returns: api.js's and db.js's functions for Swift, each loading its
/// script first if no script used its global yet (and throwing what that throws).
enum DataEntryPoint: String, CaseIterable {
    /// `loadData(request, id)`: loads a screen's data block (SPEC §7.4) through `api.call` and
    /// answers through `respond({id, response})`, once (never, when an interceptor stops
    /// delivery or the call's screen closed).
    case loadData
    /// `deliver(id, rows, error)`: the rows of the `db.watch` started under `id`, or the error
    /// that ended it (reported, the watch dropped).
    case deliver
}

/// What patches.js returns for Swift (its `forSwift`, handed on by patch-globals.js, which
/// answers as an empty table until patches.js is loaded; its `forPrelude`, the prelude's own
/// calls through hooks, goes to prelude.js as `patches`).
enum PatchEntryPoint: String, CaseIterable {
    /// `method(target, original, args)` → `[result, id of the hook that made it or 0]` of the
    /// patchable function `target` through its hooks, or `null` when `original` (the Swift body)
    /// threw and nothing caught it, or could not take its arguments.
    case method
    /// `handler(target, fn, args)` → what `fn(...args)` returns through the hooks on `target`.
    case handler
    /// `service(name, params, done)`: calls the service `name` through its hooks the way
    /// `hybrid.call` does, and `done(true, value)` or `done(false, code, message)` with the answer.
    case service
    /// `runaway()` → `[target, id]` of the hook the time limit stopped, or `null`; resets what
    /// the table was running.
    case runaway
    /// `fail(id, revoking)`: counts a failure of the hook `id` (`revoking` a success counted before).
    case fail
}

/// The functions a script handed back (`PreludeEntryPoint`s, `DataEntryPoint`s or
/// `PatchEntryPoint`s), kept alive.
struct EntryPoints<Point: RawRepresentable & CaseIterable> where Point.RawValue == String {
    /// By the points' names: a dictionary keyed by `Point` itself is a type of its own for each
    /// kind of point, and the Swift runtime checks each one's `Hashable` conformance by a walk
    /// over all the program's conformances (0.6 M instructions each, on `hybrid run`'s start).
    private let functions: [String: ProtectedValue]

    /// Takes each of `Point`'s functions from `exports`, the object the script returned.
    init(_ exports: JavaScriptValue) {
        var functions: [String: ProtectedValue] = [:]
        for point in Point.allCases {
            let function = exports[point.rawValue]
            precondition(function.isFunction, "the bridge's JavaScript returned no function \(point.rawValue) (\(Point.self))")
            functions[point.rawValue] = function.protect()
        }
        self.functions = functions
    }

    subscript(point: Point) -> ProtectedValue {
        // Every case was taken in `init`.
        functions[point.rawValue]!
    }
}
