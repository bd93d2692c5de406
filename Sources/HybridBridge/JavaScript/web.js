// SPEC §3's everyday web globals, so code written for browsers and React Native runs:
// DOMException, AbortController/AbortSignal, TextEncoder/TextDecoder (UTF-8), atob/btoa,
// structuredClone, performance, and fetch with Headers, Request and Response (fetch.js).
// Called by web-globals.js after url.js, with the natives and its `define`; returns nothing.
//
// Each follows its standard (WHATWG Encoding, HTML's base64 and structured clone, DOM's
// abort signals, Fetch) as far as a terminal app can use it: no streams, no Blob.
(function (native, define) {
  'use strict';

  // DOMException: the errors the web platform throws (AbortError, InvalidCharacterError, …).
  const LEGACY_CODES = { IndexSizeError: 1, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12,
    InvalidCharacterError: 5, NetworkError: 19, AbortError: 20, TimeoutError: 23, DataCloneError: 25 };
  class DOMException extends Error {
    constructor(message = '', name = 'Error') {
      super(String(message));
      Object.defineProperty(this, 'name', { value: String(name), configurable: true, writable: true });
    }
    get code() { return LEGACY_CODES[this.name] || 0; }
  }
  define('DOMException', DOMException);

  // AbortSignal and AbortController (DOM §3.1), with the little of EventTarget they need.
  const CONSTRUCTING = Symbol('constructing');
  class AbortSignal {
    constructor(key) {
      if (key !== CONSTRUCTING) throw new TypeError('Illegal constructor: use new AbortController().signal, AbortSignal.abort() or AbortSignal.timeout()');
      this._aborted = false;
      this._reason = undefined;
      this._listeners = [];
      this._onabort = null;
    }
    // An event handler attribute (DOM): it runs among the listeners where it was first set.
    get onabort() { return this._onabort === null ? null : this._onabort.handler; }
    set onabort(handler) {
      const fn = typeof handler === 'function' ? handler : null;
      if (this._onabort === null) {
        if (fn === null) return;
        this._onabort = { handler: fn, listener: (event) => { if (this._onabort.handler) this._onabort.handler.call(this, event); } };
        this._listeners.push({ listener: this._onabort.listener, once: false });
      } else {
        this._onabort.handler = fn;
      }
    }
    get aborted() { return this._aborted; }
    get reason() { return this._reason; }
    throwIfAborted() { if (this._aborted) throw this._reason; }
    addEventListener(type, listener, options) {
      if (type !== 'abort' || listener === null || listener === undefined) return;
      if (this._listeners.some((entry) => entry.listener === listener)) return;
      this._listeners.push({ listener, once: typeof options === 'object' && options !== null && Boolean(options.once) });
    }
    removeEventListener(type, listener) {
      if (type === 'abort') this._listeners = this._listeners.filter((entry) => entry.listener !== listener);
    }
    static abort(reason) {
      const signal = new AbortSignal(CONSTRUCTING);
      signalAbort(signal, reason);
      return signal;
    }
    static timeout(milliseconds) {
      const signal = new AbortSignal(CONSTRUCTING);
      setTimeout(() => signalAbort(signal, new DOMException('The operation timed out.', 'TimeoutError')), Number(milliseconds));
      return signal;
    }
    static any(signals) {
      const signal = new AbortSignal(CONSTRUCTING);
      for (const source of signals) {
        if (source.aborted) {
          signalAbort(signal, source.reason);
          return signal;
        }
      }
      for (const source of signals) source.addEventListener('abort', () => signalAbort(signal, source.reason), { once: true });
      return signal;
    }
  }
  // Listeners that throw are reported (as a browser does) and the others still run.
  function signalAbort(signal, reason) {
    if (signal._aborted) return;
    signal._aborted = true;
    signal._reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const event = Object.freeze({ type: 'abort', target: signal, currentTarget: signal });
    for (const { listener } of signal._listeners.splice(0)) {
      try {
        if (typeof listener === 'function') listener.call(signal, event);
        else if (listener && typeof listener.handleEvent === 'function') listener.handleEvent(event);
      } catch (error) {
        native.reportError({ error });
      }
    }
  }
  class AbortController {
    constructor() { this._signal = new AbortSignal(CONSTRUCTING); }
    get signal() { return this._signal; }
    abort(reason) { signalAbort(this._signal, reason); }
  }
  define('AbortSignal', AbortSignal);
  define('AbortController', AbortController);

  // TextEncoder and TextDecoder: UTF-8 only, as the Encoding standard's TextEncoder is.
  function bytesOf(input, who) {
    if (input === undefined) return new Uint8Array(0);
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError(`${who}: expected an ArrayBuffer or a view of one`);
  }
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input = '') {
      const text = String(input);
      const bytes = [];
      for (let i = 0; i < text.length; i++) {
        let code = text.charCodeAt(i);
        if (code >= 0xD800 && code <= 0xDBFF && i + 1 < text.length) {
          const next = text.charCodeAt(i + 1);
          if (next >= 0xDC00 && next <= 0xDFFF) {
            code = 0x10000 + ((code - 0xD800) << 10) + (next - 0xDC00);
            i++;
          }
        }
        if (code >= 0xD800 && code <= 0xDFFF) code = 0xFFFD; // a lone surrogate
        if (code < 0x80) bytes.push(code);
        else if (code < 0x800) bytes.push(0xC0 | (code >> 6), 0x80 | (code & 0x3F));
        else if (code < 0x10000) bytes.push(0xE0 | (code >> 12), 0x80 | ((code >> 6) & 0x3F), 0x80 | (code & 0x3F));
        else bytes.push(0xF0 | (code >> 18), 0x80 | ((code >> 12) & 0x3F), 0x80 | ((code >> 6) & 0x3F), 0x80 | (code & 0x3F));
      }
      return Uint8Array.from(bytes);
    }
    encodeInto(source, destination) {
      if (!(destination instanceof Uint8Array)) throw new TypeError('TextEncoder.encodeInto: the destination must be a Uint8Array');
      const text = String(source);
      let read = 0;
      let written = 0;
      for (const character of text) {
        const bytes = this.encode(character);
        if (written + bytes.length > destination.length) break;
        destination.set(bytes, written);
        written += bytes.length;
        read += character.length;
      }
      return { read, written };
    }
  }
  const UTF8_LABELS = ['utf-8', 'utf8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8'];
  class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      if (!UTF8_LABELS.includes(String(label).trim().toLowerCase())) {
        throw new RangeError(`TextDecoder: the encoding "${label}" is not supported (only UTF-8 is)`);
      }
      this._fatal = Boolean(options && options.fatal);
      this._ignoreBOM = Boolean(options && options.ignoreBOM);
      this._pending = [];
      this._bomSeen = false;
    }
    get encoding() { return 'utf-8'; }
    get fatal() { return this._fatal; }
    get ignoreBOM() { return this._ignoreBOM; }
    // The Encoding standard's UTF-8 decoder: each maximal invalid subpart is one U+FFFD.
    decode(input, options) {
      const stream = Boolean(options && options.stream);
      const bytes = this._pending.concat(Array.from(bytesOf(input, 'TextDecoder.decode')));
      this._pending = [];
      let out = '';
      let i = 0;
      const fail = () => {
        if (this._fatal) { this._pending = []; this._bomSeen = false; throw new TypeError('TextDecoder.decode: the data is not valid UTF-8'); }
        out += '\uFFFD';
      };
      while (i < bytes.length) {
        const first = bytes[i];
        let needed = 0;
        let code = 0;
        let lower = 0x80;
        let upper = 0xBF;
        if (first < 0x80) { out += String.fromCharCode(first); i++; continue; }
        if (first >= 0xC2 && first <= 0xDF) { needed = 1; code = first & 0x1F; }
        else if (first >= 0xE0 && first <= 0xEF) { needed = 2; code = first & 0xF; if (first === 0xE0) lower = 0xA0; if (first === 0xED) upper = 0x9F; }
        else if (first >= 0xF0 && first <= 0xF4) { needed = 3; code = first & 0x7; if (first === 0xF0) lower = 0x90; if (first === 0xF4) upper = 0x8F; }
        else { fail(); i++; continue; }
        let j = 1;
        for (; j <= needed && i + j < bytes.length; j++) {
          const byte = bytes[i + j];
          if (byte < lower || byte > upper) break;
          lower = 0x80; upper = 0xBF;
          code = (code << 6) | (byte & 0x3F);
        }
        if (j <= needed) {
          if (i + j >= bytes.length && stream) { this._pending = bytes.slice(i); break; }
          fail();
          i += j;
          continue;
        }
        out += String.fromCodePoint(code);
        i += needed + 1;
      }
      if (!this._ignoreBOM && !this._bomSeen && out.length > 0) {
        if (out.charCodeAt(0) === 0xFEFF) out = out.slice(1);
        this._bomSeen = true;
      }
      if (!stream) this._bomSeen = false;
      return out;
    }
  }
  define('TextEncoder', TextEncoder);
  define('TextDecoder', TextDecoder);

  // atob and btoa (HTML's forgiving-base64).
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function btoa(data) {
    const text = String(data);
    let out = '';
    for (let i = 0; i < text.length; i += 3) {
      const codes = [text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)];
      for (const code of codes) {
        if (code > 0xFF) throw new DOMException("Failed to execute 'btoa': the string contains characters outside of the Latin1 range.", 'InvalidCharacterError');
      }
      const [a, b, c] = codes;
      out += ALPHABET[a >> 2] + ALPHABET[((a & 3) << 4) | (Number.isNaN(b) ? 0 : b >> 4)];
      out += Number.isNaN(b) ? '=' : ALPHABET[((b & 15) << 2) | (Number.isNaN(c) ? 0 : c >> 6)];
      out += Number.isNaN(c) ? '=' : ALPHABET[c & 63];
    }
    return out;
  }
  function atob(data) {
    let text = String(data).replace(/[\t\n\f\r ]/g, '');
    if (text.length % 4 === 0) text = text.replace(/==?$/, '');
    if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) {
      throw new DOMException("Failed to execute 'atob': the string to be decoded is not correctly encoded.", 'InvalidCharacterError');
    }
    let out = '';
    let buffer = 0;
    let bits = 0;
    for (const character of text) {
      buffer = (buffer << 6) | ALPHABET.indexOf(character);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out += String.fromCharCode((buffer >> bits) & 0xFF);
      }
    }
    return out;
  }
  define('btoa', btoa);
  define('atob', atob);

  // structuredClone (HTML's StructuredSerialize/Deserialize in one pass): cycles and shared
  // references kept; functions, symbols and objects with hidden state refused.
  function structuredClone(value, options) {
    if (options && options.transfer && options.transfer.length > 0) {
      throw new DOMException('structuredClone: transferring is not supported', 'DataCloneError');
    }
    const memory = new Map();
    const refuse = (what) => { throw new DOMException(`${what} could not be cloned.`, 'DataCloneError'); };
    const copy = (input) => {
      const type = typeof input;
      if (type === 'function') refuse(`${input.name ? `function ${input.name}` : 'A function'}`);
      if (type === 'symbol') refuse(String(input));
      if (input === null || type !== 'object') return input;
      if (memory.has(input)) return memory.get(input);
      const keep = (output) => { memory.set(input, output); return output; };
      const tag = Object.prototype.toString.call(input).slice(8, -1);
      switch (tag) {
        case 'Boolean': case 'Number': case 'String': case 'BigInt': return keep(Object(input.valueOf()));
        case 'Date': return keep(new Date(input.getTime()));
        case 'RegExp': return keep(new RegExp(input.source, input.flags));
        case 'ArrayBuffer': return keep(input.slice(0));
        case 'DataView': return keep(new DataView(copy(input.buffer), input.byteOffset, input.byteLength));
        case 'Map': {
          const output = keep(new Map());
          for (const [key, entry] of input) output.set(copy(key), copy(entry));
          return output;
        }
        case 'Set': {
          const output = keep(new Set());
          for (const entry of input) output.add(copy(entry));
          return output;
        }
        case 'Error': {
          const Kind = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError }[input.name] || Error;
          const output = keep(new Kind(input.message));
          if (input.stack !== undefined) output.stack = String(input.stack);
          if ('cause' in input) output.cause = copy(input.cause);
          return output;
        }
        case 'Array': {
          const output = keep(new Array(input.length));
          for (const key of Object.keys(input)) output[key] = copy(input[key]);
          return output;
        }
        case 'Object': {
          if (input instanceof AbortSignal) refuse('An AbortSignal object');
          const output = keep({});
          for (const key of Object.keys(input)) output[key] = copy(input[key]);
          return output;
        }
        default:
          if (ArrayBuffer.isView(input)) return keep(new input.constructor(copy(input.buffer), input.byteOffset, input.length));
          return refuse(`${tag} object`);
      }
    };
    return copy(value);
  }
  define('structuredClone', structuredClone);

  // performance.now(): milliseconds since the runtime started, monotonic, below a millisecond.
  const timeOrigin = Date.now() - native.now();
  define('performance', Object.freeze({ now: () => native.now(), timeOrigin, toJSON: () => ({ timeOrigin }) }));
})
