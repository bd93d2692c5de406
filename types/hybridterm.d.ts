// TypeScript declarations for every global a HybridTerm script has (docs/SPEC.md §3 and §7),
// for editors (VS Code completes and checks plain .js files with `// @ts-check`) and for
// `tsc --noEmit --allowJs --checkJs`. The implementation is the bridge's JavaScript
// (Sources/HybridBridge/JavaScript/*.js); these only describe it.
//
// Scripts run in JavaScriptCore, not in a browser: there is no DOM. Check them with
// `"lib": ["es2022"]` and `"types": []` (no "dom", no Node): the web globals a HybridTerm script
// does have (fetch, URL, TextEncoder, AbortController, …) are declared here, with the standard
// shapes, so code written for browsers type-checks as it runs.
//
// Script files, not modules: every name declared is global, as it is at run time.

// The declarations are in three files, all read through this one (point a jsconfig.json at it):
// this file (the HybridTerm globals), hybridterm-shapes.d.ts (the `HybridTerm.*` shapes they take
// and answer) and hybridterm-web.d.ts (the web globals).
/// <reference path="./hybridterm-shapes.d.ts" />
/// <reference path="./hybridterm-web.d.ts" />

// ───────────────────────────── Errors ─────────────────────────────

/**
 * The `code` of an error a HybridTerm call rejects (or throws) with.
 *
 * - `E_NO_SERVICE`: no service, API or bridge handler of that name (with a did-you-mean).
 * - `E_BAD_PARAMS`: the params do not fit the service's or API's description; nothing was sent.
 * - `E_DENIED`: a permission the manifest did not request or the host did not grant, or a
 *   signing secret the host did not supply.
 * - `E_FAILED`: the service ran and failed.
 * - `E_TIMEOUT`: the call took longer than its `timeout`.
 * - `E_HTTP`: an API answered with a status outside 200–299 (the error has `status`, `data`, `requestId`).
 * - `E_CANCELLED`: cancelled (`api.cancel`, an API's `inFlight: "cancelPrevious"`).
 * - `E_DUPLICATE`: an API with `inFlight: "ignoreNew"` has a call in flight; nothing was sent.
 * - `E_INTERCEPTED`: an `api.intercept` hook's `shouldCall` returned `false`; nothing was sent.
 * - `E_OFFLINE`: the API's host cannot be reached (or `cache: "only"` found nothing kept).
 * - `E_SQL`: SQLite refused a statement (its message and the calling line).
 * - `E_NO_SCREEN`: `state.*` was called while no screen is open (use `store.*`).
 * - `E_BAD_VALUE`: `store.set` (or `state.set`) was given a value that is not JSON.
 * - `E_NO_METHOD`: `self.ORIGname` in `defineClass` names no patchable Swift function.
 * - `E_BAD_ARGUMENT`: a patchable Swift function cannot take the arguments it was given.
 */
type HybridErrorCode =
  | 'E_NO_SERVICE'
  | 'E_BAD_PARAMS'
  | 'E_DENIED'
  | 'E_FAILED'
  | 'E_TIMEOUT'
  | 'E_HTTP'
  | 'E_CANCELLED'
  | 'E_DUPLICATE'
  | 'E_INTERCEPTED'
  | 'E_OFFLINE'
  | 'E_SQL'
  | 'E_NO_SCREEN'
  | 'E_BAD_VALUE'
  | 'E_NO_METHOD'
  | 'E_BAD_ARGUMENT';

/**
 * What a HybridTerm call rejects or throws with: an `Error` whose `message` says what and where
 * (`… (called at main.js:3:11)`) and whose stack includes the calling script line. Not a
 * global value: use it in JSDoc, e.g. `catch (e) { const error = /** @type {HybridError} *\/ (e); }`.
 */
interface HybridError extends Error {
  /** Why the call failed. */
  code: HybridErrorCode;
  /** `E_HTTP`: the HTTP status of the answer. */
  status?: number;
  /** `E_HTTP`: the answer's body, parsed like an answer's `data`. */
  data?: any;
  /** `E_HTTP`: the `X-Request-ID` the request was sent with. */
  requestId?: string;
}

// ───────────────────────────── hybrid ─────────────────────────────

/** Native services (SPEC §3), and telling the runtime the bundle started well. */
declare const hybrid: {
  /**
   * Calls a native service. Every call ends: it resolves with the service's result, or rejects
   * with a {@link HybridError} (`E_NO_SERVICE`, `E_BAD_PARAMS`, `E_DENIED`, `E_FAILED`, `E_TIMEOUT`, …).
   * @param name the service, `domain.verb` (e.g. `storage.get`)
   * @param params its params object
   * @example const saved = await hybrid.call('storage.get', { key: 'todos' });
   */
  call<T = any>(name: string, params?: any, options?: HybridTerm.CallOptions): Promise<T>;
  /** Calls a service registered as sync and returns its result; throws a {@link HybridError}. */
  callSync<T = any>(name: string, params?: any): T;
  /** Every registered service, with its parameters. */
  services(): HybridTerm.ServiceDescription[];
  /** Tells the runtime this bundle version started well (one that never does is rolled back). */
  ready(): void;
};

/**
 * The de-facto JSBridge API, so scripts written for it run unchanged. A `var` (read-only at run
 * time) so that the usual set-up snippet's `window.WebViewJavascriptBridge` type-checks.
 */
declare var WebViewJavascriptBridge: {
  /**
   * Calls the native service `name`; `responseCallback` gets its result, or
   * `{error: {code, message}}` ({@link HybridTerm.BridgeFailure}) when it fails (reported when there is no callback).
   */
  callHandler(name: string, data?: any, responseCallback?: (response: any) => void): void;
  /** Registers a handler native code calls; it answers through `responseCallback`. */
  registerHandler(name: string, handler: (data: any, responseCallback: (response?: any) => void) => void): void;
};

/** The global object, as the usual WebViewJavascriptBridge set-up snippet expects to find it. */
declare var window: typeof globalThis;

// ───────────────────────────── ui, state, store ─────────────────────────────

/** Screens (SPEC §3). */
declare const ui: {
  /** Replaces the screen on top: a screen name, an `app://SCREEN?key=value` URL, or a screen document. */
  show(screenOrUrl: string | HybridTerm.ScreenDocument): void;
  /** Opens a screen over the current one (`ui.back()` returns). */
  push(screenOrUrl: string | HybridTerm.ScreenDocument): void;
  /** Closes the screen on top, back to the one below. */
  back(): void;
  /** Merges `props` into the node with that `id` and decodes the screen again (throws on an error; the screen stays). */
  update(id: string, props: { [prop: string]: any }): void;
  /** Registers the script handler `name` that screens' actions (`"onPress": "name"`) run. */
  handler(name: string, fn: (event: HybridTerm.UIEvent) => any): void;
  /** Builds every `component` node named `name` that the document does not define: `fn(props)` → node. */
  component(name: string, fn: (props: any) => HybridTerm.Node): void;
  /** The id of the screen on top, or `null` before one opens. */
  readonly screen: string | null;
  /**
   * Shows a dialog over the screen, the focus trapped in it. Resolves with the chosen button's
   * `id`, or `null` when dismissed with Esc.
   * @example const choice = await ui.dialog({ title: 'Delete?', text: 'This cannot be undone.', buttons: [{ id: 'yes', label: 'Delete' }, { id: 'no', label: 'Keep' }] });
   */
  dialog(options: HybridTerm.DialogOptions): Promise<string | null>;
  /** Shows a transient message that does not take the focus. */
  toast(text: string, options?: HybridTerm.ToastOptions): void;
};

/**
 * The state of the screen on top (setting it re-renders what is bound to it). Each call throws
 * an `E_NO_SCREEN` {@link HybridError} while no screen is open (say, in the entry script before
 * the start screen shows): keep such data in `store`.
 */
declare const state: {
  /** The value at a dotted path (`"form.email"`, `"todos.0.done"`); the whole state without one. */
  get<T = any>(path?: string): T;
  /** Sets the value at a dotted path. A value that is not JSON throws `E_BAD_VALUE`. */
  set(path: string, value: {} | null): void;
  /**
   * Calls `fn(value, changedPath)` when the state at `path`, inside it or around it is set:
   * `value` is the value at `path` now, `changedPath` the path that was set.
   */
  watch<T = any>(path: string, fn: (value: T, changedPath: string) => void): HybridTerm.Handle;
};

/**
 * The app store: one JSON tree per running app, shared by every screen, alive from before the
 * entry script runs until the app ends. Screens read it as `@{store.PATH}`.
 */
declare const store: {
  /** The value at a dotted path; the whole store without one. */
  get<T = any>(path?: string): T;
  /**
   * Sets the value at a dotted path; every open screen that reads it re-renders. A value that
   * is not JSON (a function, a cycle, a BigInt, `undefined` inside an array) throws `E_BAD_VALUE`.
   */
  set(path: string, value: {} | null): void;
  /** Calls `fn(value, previous)` after each change of the value at `path`. */
  watch<T = any>(path: string, fn: (value: T, previous: T) => void): HybridTerm.Handle;
};

// ───────────────────────────── Hot fixes ─────────────────────────────

/**
 * Hooks on native services (`service:NAME`), script handlers (`handler:NAME`) and patchable
 * Swift functions (`method:Type.name`), see docs/hot-fixes.md. Several hooks on one target run
 * in order; a hook that fails 3 times in a row is disabled and the original runs again.
 */
declare const patch: {
  /** Replaces the target: `fn` gets the `original` (call it to run what was there) and the call's arguments. */
  replace(target: HybridTerm.PatchTarget, fn: (original: (...args: any[]) => any, ...args: any[]) => any): HybridTerm.PatchHandle;
  /** Runs `fn` with the call's arguments before the target. */
  before(target: HybridTerm.PatchTarget, fn: (...args: any[]) => void): HybridTerm.PatchHandle;
  /** Runs `fn` with the result and the arguments after the target; a value it returns (other than `undefined`) replaces the result. */
  after(target: HybridTerm.PatchTarget, fn: (result: any, ...args: any[]) => any): HybridTerm.PatchHandle;
};

/**
 * JSPatch-style sugar over `patch.replace`: replaces `method:Type.name` for each method listed.
 * Inside, `self` (and `this`) has `ORIGname(...)` for each listed method.
 * @example defineClass('Cart', { total: function (cart) { return self.ORIGtotal(cart) * 0.9; } });
 */
declare function defineClass(
  type: string,
  methods: { [name: string]: (this: HybridTerm.DefineClassSelf, ...args: any[]) => any } & ThisType<HybridTerm.DefineClassSelf>,
): HybridTerm.Handle;

/** Inside a `defineClass` method: `ORIGname(...)` for each method listed (`undefined` elsewhere). */
declare var self: HybridTerm.DefineClassSelf;

// ───────────────────────────── api ─────────────────────────────

/** The network APIs the bundle declares (SPEC §7.2, docs/network.md); needs the permission `api`. */
declare const api: {
  /**
   * Calls a declared API. Rejects with a {@link HybridError}: `E_NO_SERVICE` (unknown API, with a
   * did-you-mean), `E_BAD_PARAMS`, `E_HTTP`, `E_OFFLINE`, `E_TIMEOUT`, `E_CANCELLED`, `E_DUPLICATE`, `E_INTERCEPTED`, …
   * @example const { data } = await api.call('items.list', { category: 'green' }, { timeout: 2000 });
   */
  call<T = any>(name: string, params?: HybridTerm.ApiParams | null, options?: HybridTerm.ApiCallOptions): Promise<HybridTerm.ApiAnswer<T>>;
  /** Registers a reformer by name (for `api.call`'s `reformer` and data blocks). The first registration of a name is kept. */
  reformer(name: string, fn: HybridTerm.Reformer): HybridTerm.Handle;
  /** An API manager: one API's paged loading. */
  manager<T = any>(name: string): HybridTerm.ApiManager<T>;
  /** Hooks around every call of the APIs `pattern` names: an API name, `shop.*` or `*`. */
  intercept(pattern: string, hooks: HybridTerm.ApiInterceptor): HybridTerm.Handle;
  /** Forgets the kept answers (memory and disk) of the APIs `pattern` names. */
  invalidate(pattern: string): void;
  /** Cancels the calls in flight of the APIs `pattern` names (they reject with `E_CANCELLED`). */
  cancel(pattern: string): void;
  /** Sends what waits in the outbox, in order. */
  flush(): Promise<HybridTerm.FlushResult>;
  /** The calls waiting in the outbox, oldest first. */
  outbox(): HybridTerm.OutboxEntry[];
  /** `false` after a call found its host unreachable; `true` again after any answer from the network. */
  readonly online: boolean;
  /** Calls `fn` on each change of `api.online`. */
  onStatus(fn: (online: boolean) => void): HybridTerm.Handle;
};

// ───────────────────────────── db ─────────────────────────────

/**
 * The app's SQLite database (SPEC §7.3, docs/database.md); needs the permission `db`.
 * Statements are synchronous; SQLite's refusals throw an `E_SQL` {@link HybridError}.
 */
declare const db: {
  /** The rows, objects by column name. */
  query<R extends object = HybridTerm.Row>(sql: string, params?: HybridTerm.DbParams | null): R[];
  /** Runs a statement: `{changes, lastInsertRowId}`. */
  exec(sql: string, params?: HybridTerm.DbParams | null): HybridTerm.ExecResult;
  /** Runs one statement once per params, in one transaction: none of the rows when one fails. */
  batch(sql: string, paramsList: HybridTerm.DbParams[]): HybridTerm.BatchResult;
  /**
   * Runs `fn(tx)` in one transaction: committed when it returns (its value is returned),
   * rolled back whole when it throws. `fn` must be synchronous.
   */
  transaction<T>(fn: (tx: HybridTerm.Transaction) => T): T;
  /** A table's rows by primary key. */
  table<R extends object = HybridTerm.Row>(name: string): HybridTerm.Table<R>;
  /**
   * Calls `fn(rows)` now, then after each committed transaction that changed what the query
   * reads and changed its rows (never for a rolled-back one).
   */
  watch<R extends object = HybridTerm.Row>(sql: string, params: HybridTerm.DbParams | null | undefined, fn: (rows: R[]) => void): HybridTerm.Handle;
  /**
   * Runs `fn(change, tx)` once per row the operation changes in `table`, inside the writing
   * transaction, before the commit; a throw rolls the transaction back.
   */
  handler<R extends object = HybridTerm.Row>(table: string, op: 'insert', fn: (change: HybridTerm.InsertChange<R>, tx: HybridTerm.Transaction) => void): HybridTerm.Handle;
  handler<R extends object = HybridTerm.Row>(table: string, op: 'update', fn: (change: HybridTerm.UpdateChange<R>, tx: HybridTerm.Transaction) => void): HybridTerm.Handle;
  handler<R extends object = HybridTerm.Row>(table: string, op: 'delete', fn: (change: HybridTerm.DeleteChange<R>, tx: HybridTerm.Transaction) => void): HybridTerm.Handle;
  handler<R extends object = HybridTerm.Row>(table: string, op: 'insert' | 'update' | 'delete', fn: (change: HybridTerm.Change<R>, tx: HybridTerm.Transaction) => void): HybridTerm.Handle;
};

// ───────────────────────────── console, timers, modules ─────────────────────────────

/**
 * Lines for the developer console (and `hybrid run --log FILE`); `hybrid eval` prints `log` and
 * `info` to stdout, `warn` and `error` to stderr. Values are formatted as Node does.
 */
declare var console: {
  log(...values: any[]): void;
  info(...values: any[]): void;
  debug(...values: any[]): void;
  warn(...values: any[]): void;
  error(...values: any[]): void;
  /** As `debug`. */
  trace(...values: any[]): void;
};

/**
 * Runs `callback(...args)` once after `delay` milliseconds; returns an id for `clearTimeout`.
 * `delay` is taken as a browser takes it, as a 32-bit integer: NaN, `Infinity` and negative
 * delays run at once, and 2**31 or more wraps around.
 */
declare function setTimeout<A extends any[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
/** Runs `callback(...args)` every `delay` milliseconds (at least 1), `delay` taken as by `setTimeout`; returns an id for `clearInterval`. */
declare function setInterval<A extends any[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
/** Cancels a timer made by `setTimeout` (or `setInterval`). */
declare function clearTimeout(id?: number | null): void;
/** Cancels a timer made by `setInterval` (or `setTimeout`). */
declare function clearInterval(id?: number | null): void;
/** Runs `callback` as a microtask, after the current script and before any timer. */
declare function queueMicrotask(callback: () => void): void;

/**
 * Loads a CommonJS module of the bundle (`require('./rules.js')`), resolved inside the bundle
 * only, relative to the requiring file; returns its `module.exports`.
 */
declare function require(specifier: string): any;
/** The CommonJS module of this file: assign `module.exports` to export. */
declare var module: {
  exports: any;
  /** The file's path. */
  id: string;
  filename: string;
  loaded: boolean;
};
/** This file's `module.exports` as it started (add properties to export). */
declare var exports: any;
/** This file's path. */
declare var __filename: string;
/** This file's folder. */
declare var __dirname: string;
