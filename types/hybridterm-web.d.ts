// The web platform's everyday globals a HybridTerm script has (docs/SPEC.md §3), as their
// standards define them (WHATWG Fetch, URL, Encoding, HTML, DOM) as far as a terminal app has
// them: no streams, no Blob, no FormData. For checking with `"lib": ["es2022"]` and no "dom"
// (scripts run in JavaScriptCore, not a browser). Read through hybridterm.d.ts.

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
