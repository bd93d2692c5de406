// The whole contract between the bridge's JavaScript (JavaScript/*.js) and Swift, read in one
// place: every native function the scripts call, with what it takes and answers (here; run by
// BridgeNatives.swift and, for ui.js, a host's UINatives.swift), and every function the
// scripts hand back for Swift to call (EntryPoints.swift). The scripts reach
// Swift through these names only (a test holds them to it).
//
// A native takes one message object with named fields, the way WebViewJavascriptBridge passes
// one message per call — except `call` and `callSync`, the measured hot paths (BENCHMARKS.md):
// each field read from a message is one more engine call taking the engine's lock (seven of
// them cost an awaited call a fifth of its time), so they take their arguments in order.
// Failures a script should see are thrown into it.

/// The natives of prelude.js, patch-globals.js, patches.js, web-globals.js, web.js,
/// data-globals.js, api.js and db.js, the names of the `native` object they receive.
enum Native: String, CaseIterable {
    // hybrid.* and WebViewJavascriptBridge (prelude.js)

    /// `call(service, params, timeout, resolve, reject, handle, checkedAt, ...values)` → the answer of a
    /// sync service or of an async one that answered without waiting, or `undefined` when
    /// `resolve(value)` or `reject(code, message, details)` will be called from the loop (then
    /// `handle.id`, when a `handle` object was given, is the call's number for `cancelCall`);
    /// throws `{code, message, details?}` when the call fails at once. `timeout` is in
    /// milliseconds, -1 for the service's own; `checkedAt` is the registry generation at which
    /// the prelude found every field of `params` known (see `fields`), or -1, and then
    /// `values` are `params`' values of those fields, in the order `fields` gave them (Swift
    /// reads no field itself: each read would be an engine call), followed by any number of
    /// others, which Swift ignores (the prelude writes four out rather than spread an array).
    case call
    /// `cancelCall({id})`: drops the call in flight numbered `id` (its signal aborted), cancelling
    /// its work; its promise is never settled by Swift.
    case cancelCall
    /// `callSync(service, params, _, _, _, _, checkedAt, ...values)` → the sync service's answer
    /// (`checkedAt` and `values` as for `call`, whose arguments between it ignores, so the
    /// prelude calls both alike); throws `{code, message, details?}`.
    case callSync
    /// `fields({service})` → `{generation, fields}`: the field names the service accepts (`null`
    /// when it takes any, or does not exist) at registry generation `generation`.
    case fields
    /// `services()` → every service's description, as `hybrid.services()` lists them.
    case services
    /// `ready()`: the script started well (`hybrid.ready()`).
    case ready
    /// `locate({stack})` → the `FILE:LINE:COL` of the first frame of `stack` outside the bridge,
    /// or `undefined`.
    case locate
    /// `respond({id, response})`: a registered handler's answer to the native call `id` (see
    /// `PreludeEntryPoints.dispatch`).
    case respond

    // console, timers, require() (prelude.js)

    /// `log({level, text})`: console output; `level` is log, info, debug, warn or error.
    case log
    /// `reportError({error})`: reports a value thrown where nobody could catch it (a
    /// `queueMicrotask` callback).
    case reportError
    /// `overBudget({site})` → whether the current entry has used its time limit (a job is then
    /// dropped, and the entry reported as a runaway where `site`, an `Error`, was made).
    case overBudget
    /// `timer({callback, delay, repeating, site})` → the timer's number: calls `callback()` after
    /// `delay` ms (every `delay` ms when `repeating`); `site`, an `Error`, locates its failures that have none.
    case timer
    /// `clearTimer({id})`: clears the timer numbered `id`.
    case clearTimer
    /// `resolve({specifier, folder})` → `{path, source}`: the file `require(specifier)` loads in
    /// a module of `folder`; throws an `Error` when it may not be loaded or does not exist.
    case resolve
    /// `compile({source, path, main})` → the module's function `(exports, require, module,
    /// __filename, __dirname)`: for the `main` script, an async one when its top level awaits
    /// (it then returns a promise); throws its syntax error.
    case compile

    // The web globals (web-globals.js, web.js)

    /// `loadWebGlobals()` → `{'url-hosts', 'url-parser', url, web, fetch}`: the functions of the
    /// scripts that define the web globals (url-hosts.js, url-parser.js, url.js, web.js,
    /// fetch.js), evaluated but not called, for web-globals.js to call when one of the globals
    /// is first used; throws what the evaluation threw (a runaway stopped).
    case loadWebGlobals
    /// `now()` → milliseconds since the runtime started: monotonic, below a millisecond
    /// (`performance.now()`).
    case now

    // The api, db and hot-fix globals (data-globals.js, patch-globals.js)

    /// `loadScript({name})` → the function of api.js (`name` "api"), db.js ("db") or
    /// patches.js ("patches"), evaluated but not called, for data-globals.js or
    /// patch-globals.js to call when its globals are first needed; throws what the evaluation
    /// threw (a runaway stopped).
    case loadScript

    // Hot fixes (patches.js; what hooks do is in docs/hot-fixes.md)

    /// `patchFailureLimit()` → how many failures in a row disable a hook.
    case patchFailureLimit
    /// `hooked({target, live})`: whether a hook that runs is on `target` now.
    case hooked
    /// `checkTarget({kind, name, stack})`: warns on the console when the service or patchable
    /// function a patch names is unknown (yet); `stack` is where the patch was made.
    case checkTarget
    /// `patchFailed({error, note})`: a hook threw `error`; reported like any script error, with
    /// `note` naming the hook.
    case patchFailed
    /// `patchNotice({text})`: a line about the patches themselves (a hook disabled), shown and logged.
    case patchNotice
    /// `callMethod({name, args})` → the patchable Swift function `name`'s own body run on `args`
    /// (`self.ORIGname` in `defineClass`); throws an `Error` whose `code` is `E_NO_METHOD`,
    /// `E_BAD_ARGUMENT` or `E_FAILED`.
    case callMethod
}


// MARK: - ui.js

/// The natives of ui.js, which a host app runs (`UINatives`).
enum UINative: String, CaseIterable {
    /// `show({target, push})`: opens `target`, an `app://` URL or a screen document built by the
    /// script (`ui.show`); `push` keeps the current screen under it (`ui.push`).
    case show
    /// `back()`: closes the screen on top (`ui.back`).
    case back
    /// `update({id, props})`: changes the props of the node `id` on the current screen (`ui.update`).
    case update
    /// `component({name, fn})`: registers `fn(props)` → node as the component `name` (`ui.component`).
    case component
    /// `handler({name, fn})`: registers `fn(event)` as the handler `name` (`ui.handler`).
    case handler
    /// `screen()` → the current screen's id, or `null` (`ui.screen`).
    case screen
    /// `get({path})` → the current screen's state at `path` (all of it for `''`), or `null` (`state.get`).
    case get
    /// `set({path, value})`: sets the current screen's state at `path` (`state.set`).
    case set
    /// `watch({path, fn})` → a watcher id: calls `fn(value, changedPath)` when the state at,
    /// inside or around `path` changes (`state.watch`).
    case watch
    /// `storeGet({path})` → the app store at `path` (all of it for `''`), or `null` (`store.get`).
    case storeGet
    /// `storeSet({path, value})`: sets the app store at `path` (`store.set`).
    case storeSet
    /// `storeWatch({path, fn})` → a watcher id: calls `fn(value, previous)` when the store at
    /// `path` changes (`store.watch`).
    case storeWatch
    /// `unwatch({id})`: removes a `state.watch` or `store.watch` watcher (its handle's `remove`).
    case unwatch
    /// `dialog({title, text, buttons, done})`: shows a dialog of `buttons` (`[{id, label}]`)
    /// with the focus in it; `done(id)` once a button is chosen, `done(null)` on Esc, never if
    /// the scripts go away first (`ui.dialog`).
    case dialog
    /// `toast({text, level, ms})`: shows `text` for `ms` milliseconds without taking the focus;
    /// `level` is info, warn or error (`ui.toast`).
    case toast
}


/// A native's refusal, thrown into the calling script as an `Error` with this message.
public struct NativeError: Error {
    /// What the script is told.
    public var message: String

    /// A refusal saying `message`.
    public init(_ message: String) {
        self.message = message
    }
}
