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
// A script file, not a module: every name below is global, as it is at run time.

// ───────────────────────────── Errors and shared shapes ─────────────────────────────

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

/** Names for the shapes HybridTerm's globals take and answer (use them in JSDoc: `HybridTerm.ApiAnswer<T>`). */
declare namespace HybridTerm {
  /** What `watch`, `intercept`, `handler`, `reformer` and the like return: `remove()` undoes it. */
  interface Handle {
    /** Stops it (the watch, the interceptor, the handler, …); calling it again does nothing. */
    remove(): void;
  }

  /** Any JSON value, as services, the store and screen state hold them. */
  type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

  // ── hybrid.* ──

  /** The options of `hybrid.call`. */
  interface CallOptions {
    /** Milliseconds before the call rejects with `E_TIMEOUT` (default: the service's own). */
    timeout?: number;
    /** Aborting it drops the call: the promise rejects with the signal's `reason`, and the native work is cancelled. */
    signal?: AbortSignal;
  }

  /** One parameter of a service, as `hybrid.services()` describes it. */
  interface ServiceParameter {
    name: string;
    /** `string`, `integer`, `number`, `boolean`, `object`, `array` or `any`. */
    type: string;
    required: boolean;
  }

  /** One registered service, as `hybrid.services()` lists it. */
  interface ServiceDescription {
    /** `domain.verb`, e.g. `storage.get`. */
    name: string;
    /** Whether `hybrid.callSync` may call it. */
    sync: boolean;
    /** The fields of its params object, in declaration order. */
    params: ServiceParameter[];
    /** The permission a caller needs, if any. */
    permission?: string;
    /** A sentence for humans, if the host gave one. */
    summary?: string;
    /** Seconds a call waits by default before `E_TIMEOUT`, when the service has such a limit. */
    timeout?: number;
  }

  /** What `WebViewJavascriptBridge.callHandler` answers a failed call with. */
  interface BridgeFailure {
    error: { code: HybridErrorCode; message: string };
  }

  // ── ui.* ──

  /** A node of a screen document (SPEC §2): `{type, id?, style?, visible?, ...props, children?}`. */
  interface Node {
    /** `column`, `row`, `stack`, `box`, `scroll`, `text`, `button`, `input`, `textarea`, `checkbox`, `select`, `list`, `table`, `tabs`, `progress`, `spinner`, `divider`, `spacer`, `keyhelp`, `component`. */
    type: string;
    id?: string;
    /** Named styles (the document's `styles`, the manifest's `theme`), applied before `style`. */
    class?: string;
    style?: { [property: string]: any };
    visible?: boolean | string;
    children?: Node[];
    [prop: string]: any;
  }

  /** A whole screen document (SPEC §2), for `ui.show` and `ui.push` of a screen a script builds. */
  interface ScreenDocument {
    format: 1;
    id: string;
    body: Node;
    title?: string;
    state?: { [name: string]: any };
    [field: string]: any;
  }

  /**
   * What a script handler (`ui.handler`) gets: for widget events `type`, `id`, `value` (the new
   * text, checked state or selected option's value), `index` and `item` (lists), `row`
   * (tables), `key` (screen keys); for `{"action": "script", "args": {…}}`, those args.
   */
  interface UIEvent {
    type?: string;
    id?: string;
    value?: any;
    index?: number;
    item?: any;
    row?: any;
    key?: string;
    [arg: string]: any;
  }

  /** A button of `ui.dialog`. */
  interface DialogButton {
    /** What the dialog's promise resolves with when this button is chosen. */
    id: string;
    label: string;
  }

  /** The options of `ui.dialog`. */
  interface DialogOptions {
    title?: string;
    text?: string;
    buttons: DialogButton[];
  }

  /** The options of `ui.toast`. */
  interface ToastOptions {
    /** Default `"info"`. */
    level?: 'info' | 'warn' | 'error';
    /** How long it shows, in milliseconds. */
    ms?: number;
  }

  // ── patch, defineClass ──

  /** A patch target: a native service, a script handler, or a patchable Swift function. */
  type PatchTarget = `service:${string}` | `handler:${string}` | `method:${string}.${string}`;

  /** What `patch.replace`, `patch.before` and `patch.after` return. */
  interface PatchHandle extends Handle {
    /** The target it hooks. */
    readonly target: string;
    readonly kind: 'replace' | 'before' | 'after';
    /** Whether it was disabled after failing 3 times in a row (the original runs again). */
    readonly disabled: boolean;
  }

  /**
   * `self` (and `this`) inside a `defineClass` method: `ORIGname(...args)` for each method listed,
   * the original of the one running (what the replace wraps) and the Swift bodies of the others.
   */
  interface DefineClassSelf {
    [original: `ORIG${string}`]: (...args: any[]) => any;
  }

  // ── api.* ──

  /** The params of an API call: the API's declared params by name. */
  type ApiParams = { [name: string]: any };

  /** The options of `api.call`. */
  interface ApiCallOptions {
    /** Milliseconds; replaces the service's `timeout` for this call. */
    timeout?: number;
    /** `"default"`: the cache as declared; `"reload"`: send and keep the new answer; `"only"`: a kept answer or `E_OFFLINE`, nothing sent. */
    cache?: 'default' | 'reload' | 'only';
    /** The name of a reformer registered with `api.reformer`: the answer's `data` is what it returns. */
    reformer?: string;
    /** Aborting it drops the call (its promise rejects with the signal's `reason`, its connection is closed). */
    signal?: AbortSignal;
  }

  /**
   * What `api.call` resolves with (SPEC §7.1). For an API with `"offline": "queue"` whose host
   * cannot be reached, it is instead `{queued: true, requestId}` ({@link QueuedAnswer}): test
   * `answer.queued` before reading the rest.
   */
  interface ApiAnswer<T = any> {
    /** The body parsed as JSON, or its text when it is not JSON, or `null` when empty; with a reformer, what it returned. */
    data: T;
    /** The HTTP status (200–299). */
    status: number;
    /** The answer's headers, by lowercased name. */
    headers: { [name: string]: string };
    /** Whether it came from the cache. */
    fromCache: boolean;
    /** Whether it is past its `ttl` (with `staleIfError` or `cache: "only"`). */
    stale: boolean;
    /** The `X-Request-ID` it was fetched with (32 lowercase hex digits). */
    requestId: string;
    /** `true` when the call was queued in the outbox rather than answered (then only `requestId` is there). */
    queued?: boolean;
  }

  /** What `api.call` of an API with `"offline": "queue"` resolves with while its host cannot be reached. */
  interface QueuedAnswer {
    queued: true;
    /** Sent as `X-Request-ID` and `Idempotency-Key` on every try. */
    requestId: string;
  }

  /** What a reformer gets besides the data: the API's name and the params as the call passed them. */
  interface ReformerCall {
    api: string;
    params: any;
  }

  /** A reformer: one answer's `data`, shaped for one view. */
  type Reformer<T = any, R = any> = (data: T, call: ReformerCall) => R;

  /** The seeds' API manager (`api.manager(name)`): one API's paged loading. */
  interface ApiManager<T = any> {
    /** Loads page 1 with `params` (kept for later pages). */
    load(params?: ApiParams | null): Promise<ApiAnswer<T>>;
    /** Loads the page after the last one; after the last page, sends nothing and resolves with the last answer. */
    loadNextPage(): Promise<ApiAnswer<T>>;
    /** Forgets the pages and the last answer. */
    reset(): void;
    /** `api.cancel(name)`: cancels this API's calls in flight. */
    cancel(): void;
    /** The last answer's `data` (`null` before any answer). */
    fetch(): T | null;
    /** The last answer's `data` reformed by a function or a registered reformer's name (`null` before any answer). */
    fetch<R>(reformer: Reformer<T, R>): R | null;
    fetch(reformer: string): any;
    readonly isLoading: boolean;
    readonly isLastPage: boolean;
    /** The last page loaded (0 before any). */
    readonly page: number;
    /** The last answer's `requestId` (`null` before any). */
    readonly requestId: string | null;
  }

  /** What an interceptor's hooks get besides the params, answer or error. */
  interface InterceptInfo {
    /** The API's name. */
    api: string;
  }

  /**
   * The hooks of `api.intercept`, run in the order shouldCall, afterCall, then beforeSuccess and
   * afterSuccess (or beforeFail and afterFail). A hook that throws is reported; after 3 throws the
   * interceptor is disabled.
   */
  interface ApiInterceptor {
    /** `false` rejects the call with `E_INTERCEPTED`; nothing is sent. */
    shouldCall?(params: any, info: InterceptInfo): boolean | void;
    /** Runs once the request is on its way. */
    afterCall?(params: any, info: InterceptInfo): void;
    /** `false` stops delivery: the call's promise settles neither way. */
    beforeSuccess?(answer: ApiAnswer, info: InterceptInfo): boolean | void;
    afterSuccess?(answer: ApiAnswer, info: InterceptInfo): void;
    /** `false` stops delivery: the call's promise settles neither way. */
    beforeFail?(error: HybridError, info: InterceptInfo): boolean | void;
    afterFail?(error: HybridError, info: InterceptInfo): void;
  }

  /** What `api.flush()` resolves with. */
  interface FlushResult {
    /** Calls the server took (2xx): removed from the outbox. */
    sent: number;
    /** Calls refused for good (another answer, or the API no longer fits): removed and logged. */
    dropped: number;
    /** Calls still waiting. */
    left: number;
  }

  /** A call waiting in the outbox (`api.outbox()`), oldest first. */
  interface OutboxEntry {
    /** The API's name. */
    api: string;
    /** The params as sent, with defaults applied. */
    params: ApiParams;
    requestId: string;
    /** Milliseconds since 1970. */
    queuedAt: number;
    /** How many times it was tried. */
    tries: number;
  }

  /**
   * The screen state a `data` block keeps at its name (SPEC §7.4, docs/network.md), read with
   * `state.get('items')` or bound as `@{items.data}`.
   */
  interface DataBlock<T = any> {
    status: 'loading' | 'ok' | 'error';
    /** The answer's data (reformed, pages merged) or, for `sql`, the rows; `null` before the first answer. */
    data: T | null;
    /** `null`, or the error of the last load. */
    error: DataBlockError | null;
    stale: boolean;
    fromCache: boolean;
    /** The last page loaded (0 before the first answer, 1 without paging). */
    page: number;
    /** Whether that page was the last. */
    lastPage: boolean;
    requestId: string | null;
  }

  /** A data block's `error`: `{code, message}` plus `status`, `data` and `requestId` when the error had them. */
  interface DataBlockError {
    code: HybridErrorCode;
    message: string;
    status?: number;
    data?: any;
    requestId?: string;
  }

  // ── db.* ──

  /**
   * A value read from the database: INTEGER → number (a string beyond ±2^53, never rounded),
   * REAL → number, TEXT → string, BLOB → Uint8Array, NULL → null.
   */
  type DbValue = number | string | Uint8Array | null;
  /** A value bound to a statement: a boolean is stored as 1 or 0, a Uint8Array as a BLOB. */
  type DbParam = DbValue | boolean | undefined;
  /** Params: an array (for `?`) or an object (for `:name`), always bound, never spliced into the SQL. */
  type DbParams = DbParam[] | { [name: string]: DbParam };
  /** A row: its columns by name. */
  type Row = { [column: string]: any };
  /** A row's key for `db.table`: the primary key's value, or an object of its columns when it has several. */
  type DbKey = DbValue | { [column: string]: DbValue };

  /** What `db.exec` (and a table's writes) answer. */
  interface ExecResult {
    /** Rows changed. */
    changes: number;
    /** The rowid of the last row inserted. */
    lastInsertRowId: number;
  }

  /** What `db.batch` answers. */
  interface BatchResult {
    /** Rows changed, all rows together. */
    changes: number;
  }

  /** The transaction `db.transaction` and `db.handler` give: statements that run inside it, synchronously. */
  interface Transaction {
    query<R extends object = Row>(sql: string, params?: DbParams | null): R[];
    exec(sql: string, params?: DbParams | null): ExecResult;
  }

  /** The options of a table's `find`. */
  interface FindOptions {
    /** SQL after `WHERE`, e.g. `"title LIKE ?"`. */
    where?: string;
    params?: DbParams;
    /** SQL after `ORDER BY`, e.g. `"id DESC"`. */
    orderBy?: string;
    limit?: number;
    offset?: number;
  }

  /** `db.table(name)`: rows keyed by the table's primary key (`rowid` when it declares none). */
  interface Table<R extends object = Row> {
    find(options?: FindOptions): R[];
    /** The row with that key, or `null`. */
    get(key: DbKey): R | null;
    insert(row: Partial<R>): ExecResult;
    /** Inserts, or updates the row with the same primary key. */
    upsert(row: Partial<R>): ExecResult;
    update(key: DbKey, changes: Partial<R>): ExecResult;
    remove(key: DbKey): ExecResult;
  }

  /** A change `db.handler` is told of: `row` as it is now (`null` after a delete), `previous` as it was (`null` for an insert). */
  interface Change<R extends object = Row> {
    table: string;
    op: 'insert' | 'update' | 'delete';
    row: R | null;
    previous: R | null;
  }
  interface InsertChange<R extends object = Row> extends Change<R> {
    op: 'insert';
    row: R;
    previous: null;
  }
  interface UpdateChange<R extends object = Row> extends Change<R> {
    op: 'update';
    row: R;
    previous: R;
  }
  interface DeleteChange<R extends object = Row> extends Change<R> {
    op: 'delete';
    row: null;
    previous: R;
  }
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

/** Runs `callback(...args)` once after `delay` milliseconds; returns an id for `clearTimeout`. */
declare function setTimeout<A extends any[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
/** Runs `callback(...args)` every `delay` milliseconds; returns an id for `clearInterval`. */
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

// ───────────────────────────── Web globals (SPEC §3) ─────────────────────────────
// As their standards define them (WHATWG Fetch, URL, Encoding, HTML, DOM) as far as a terminal
// app has them: no streams, no Blob, no FormData.

/** The errors the web platform throws (`AbortError`, `TimeoutError`, `InvalidCharacterError`, `DataCloneError`, …). */
interface DOMException extends Error {
  readonly name: string;
  readonly message: string;
  /** The legacy numeric code of the name (e.g. 20 for `AbortError`), 0 for others. */
  readonly code: number;
}
declare var DOMException: {
  prototype: DOMException;
  new (message?: string, name?: string): DOMException;
};

/** The event an `AbortSignal` dispatches. */
interface Event {
  readonly type: string;
  readonly target: any;
  readonly currentTarget: any;
}

interface AddEventListenerOptions {
  once?: boolean;
}

/** Says whether an operation was aborted, and tells listeners when it is. */
interface AbortSignal {
  readonly aborted: boolean;
  /** Why it was aborted (`undefined` until then; an `AbortError` DOMException by default). */
  readonly reason: any;
  onabort: ((this: AbortSignal, event: Event) => any) | null;
  /** Throws `reason` when aborted. */
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: ((this: AbortSignal, event: Event) => any) | { handleEvent(event: Event): any }, options?: boolean | AddEventListenerOptions): void;
  removeEventListener(type: 'abort', listener: ((this: AbortSignal, event: Event) => any) | { handleEvent(event: Event): any }, options?: boolean | { capture?: boolean }): void;
}
declare var AbortSignal: {
  prototype: AbortSignal;
  /** A signal aborted already. */
  abort(reason?: any): AbortSignal;
  /** A signal that aborts after `milliseconds`, with a `TimeoutError` DOMException. */
  timeout(milliseconds: number): AbortSignal;
  /** A signal that aborts when any of `signals` does. */
  any(signals: Iterable<AbortSignal>): AbortSignal;
};

/** Aborts `fetch`, `hybrid.call` and `api.call` through its `signal`. */
interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: any): void;
}
declare var AbortController: {
  prototype: AbortController;
  new (): AbortController;
};

/** Encodes text as UTF-8. */
interface TextEncoder {
  readonly encoding: 'utf-8';
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};

interface TextDecoderOptions {
  /** Throw a TypeError on invalid bytes rather than decoding them as U+FFFD. */
  fatal?: boolean;
  ignoreBOM?: boolean;
}
interface TextDecodeOptions {
  /** More bytes follow: keep an incomplete sequence at the end for the next call. */
  stream?: boolean;
}
/** Decodes UTF-8 (the only encoding it knows). */
interface TextDecoder {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBuffer | ArrayBufferView, options?: TextDecodeOptions): string;
}
declare var TextDecoder: {
  prototype: TextDecoder;
  /** @param label `"utf-8"` (or one of its labels); any other throws a RangeError. */
  new (label?: string, options?: TextDecoderOptions): TextDecoder;
};

/** Base64 of a string of Latin-1 characters (throws an `InvalidCharacterError` DOMException for others). */
declare function btoa(data: string): string;
/** The Latin-1 string base64 `data` encodes (throws an `InvalidCharacterError` DOMException when it is not base64). */
declare function atob(data: string): string;

interface StructuredSerializeOptions {
  transfer?: any[];
}
/** A deep copy (cycles and shared references kept); functions and symbols throw a `DataCloneError` DOMException. */
declare function structuredClone<T = any>(value: T, options?: StructuredSerializeOptions): T;

/** Time for measuring: `performance.now()`. */
interface Performance {
  /** Milliseconds since the runtime started: monotonic, finer than a millisecond. */
  now(): number;
  /** When the runtime started, in milliseconds since 1970. */
  readonly timeOrigin: number;
  toJSON(): any;
}
declare var performance: Performance;

/** A parsed URL (WHATWG URL Standard). */
interface URL {
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
  username: string;
  toString(): string;
  toJSON(): string;
}
declare var URL: {
  prototype: URL;
  /** Parses `url` (against `base` when relative); throws a TypeError when it is not a valid URL. */
  new (url: string | URL, base?: string | URL): URL;
  /** Whether `new URL(url, base)` would succeed. */
  canParse(url: string | URL, base?: string | URL): boolean;
  /** The URL, or `null` where `new URL` would throw. */
  parse(url: string | URL, base?: string | URL): URL | null;
};

/** A query string's name–value pairs (WHATWG URL Standard). */
interface URLSearchParams {
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  /** The pairs as `application/x-www-form-urlencoded` text, without a leading `?`. */
  toString(): string;
  forEach(callback: (value: string, name: string, parent: URLSearchParams) => void, thisArg?: any): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare var URLSearchParams: {
  prototype: URLSearchParams;
  new (init?: string[][] | Record<string, string> | string | URLSearchParams): URLSearchParams;
};

/** Header lists: a Headers, `[name, value]` pairs, or an object of names to values. */
type HeadersInit = [string, string][] | Record<string, string> | Headers;

/** HTTP headers, names compared case-insensitively (WHATWG Fetch). */
interface Headers {
  append(name: string, value: string): void;
  delete(name: string): void;
  /** The values of `name` joined with ", ", or `null`. */
  get(name: string): string | null;
  getSetCookie(): string[];
  has(name: string): boolean;
  set(name: string, value: string): void;
  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: any): void;
  /** Sorted by lowercased name. */
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare var Headers: {
  prototype: Headers;
  new (init?: HeadersInit): Headers;
};

/** A request or response body: text, bytes (sent as UTF-8 text) or form parameters. */
type BodyInit = string | ArrayBuffer | ArrayBufferView | URLSearchParams;

/** Reading a body: once, as text, JSON or bytes. */
interface Body {
  /** Always `null`: there are no streams. */
  readonly body: null;
  readonly bodyUsed: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
  json(): Promise<any>;
  text(): Promise<string>;
}

interface RequestInit {
  /** `GET` by default. */
  method?: string;
  headers?: HeadersInit;
  /** Not for `GET` or `HEAD`. */
  body?: BodyInit | null;
  /** Aborting it rejects `fetch` with the signal's `reason`. */
  signal?: AbortSignal | null;
}

/** What `fetch` takes: a URL, or a Request. */
type RequestInfo = Request | string;

/** An HTTP request (WHATWG Fetch). */
interface Request extends Body {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
  clone(): Request;
}
declare var Request: {
  prototype: Request;
  new (input: RequestInfo | URL, init?: RequestInit): Request;
};

interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

type ResponseType = 'basic' | 'cors' | 'default' | 'error' | 'opaque' | 'opaqueredirect';

/** An HTTP response (WHATWG Fetch). */
interface Response extends Body {
  /** Whether `status` is 200–299. */
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly type: ResponseType;
  readonly redirected: boolean;
  clone(): Response;
}
declare var Response: {
  prototype: Response;
  new (body?: BodyInit | null, init?: ResponseInit): Response;
  /** A response whose body is `data` as JSON. */
  json(data: any, init?: ResponseInit): Response;
  error(): Response;
};

/**
 * Sends an HTTP(S) request through the `net.request` service (and its permission). Resolves
 * with the response whatever its status (check `ok`); rejects with a TypeError when no answer
 * came (its `code` is the service's: `E_DENIED`, `E_TIMEOUT`, `E_FAILED`), or with the
 * signal's `reason` when aborted.
 * @example const items = await (await fetch('https://example.com/items.json')).json();
 */
declare function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
