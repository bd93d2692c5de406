// The shapes HybridTerm's globals take and answer, as `HybridTerm.NAME` (in JSDoc:
// `/** @type {HybridTerm.ApiAnswer<T>} */`). Read through hybridterm.d.ts, which declares the
// globals and the error types used here.
/// <reference path="./hybridterm.d.ts" />

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
