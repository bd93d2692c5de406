// SPEC §3's fetch, with Headers, Request and Response (WHATWG Fetch, without streams or
// Blob), over the net.request service and its permission. Called by web-globals.js after
// web.js (AbortSignal, TextEncoder/TextDecoder) and url.js, with its `define`; returns nothing.
//
// net.request carries text: a request body is sent as UTF-8 text, a response body arrives as
// text, and arrayBuffer() gives its UTF-8 bytes.
(function (define) {
  'use strict';

  // Headers: names compared case-insensitively, iterated sorted and lowercased, values joined
  // with ", " as the standard combines them.
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const normalizeValue = (value) => String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  class Headers {
    constructor(init) {
      this._list = [];
      if (init === undefined || init === null) return;
      if (init instanceof Headers) {
        for (const [name, value] of init._list) this.append(name, value);
      } else if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const entry = Array.from(pair);
          if (entry.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair');
          this.append(entry[0], entry[1]);
        }
      } else if (typeof init === 'object') {
        for (const name of Object.keys(init)) this.append(name, init[name]);
      } else {
        throw new TypeError('Headers: expected an object, an array of pairs or Headers');
      }
    }
    static _name(name) {
      const text = String(name);
      if (!TOKEN.test(text)) throw new TypeError(`Headers: "${text}" is not a valid header name`);
      return text.toLowerCase();
    }
    static _value(value) {
      const text = normalizeValue(value);
      if (/[\0\r\n]/.test(text)) throw new TypeError(`Headers: ${JSON.stringify(text)} is not a valid header value`);
      return text;
    }
    append(name, value) { this._list.push([Headers._name(name), Headers._value(value)]); }
    delete(name) { const key = Headers._name(name); this._list = this._list.filter(([entry]) => entry !== key); }
    get(name) {
      const key = Headers._name(name);
      const values = this._list.filter(([entry]) => entry === key).map(([, value]) => value);
      return values.length === 0 ? null : values.join(', ');
    }
    getSetCookie() { return this._list.filter(([name]) => name === 'set-cookie').map(([, value]) => value); }
    has(name) { const key = Headers._name(name); return this._list.some(([entry]) => entry === key); }
    set(name, value) {
      const key = Headers._name(name);
      const text = Headers._value(value);
      const index = this._list.findIndex(([entry]) => entry === key);
      if (index === -1) { this._list.push([key, text]); return; }
      this._list[index] = [key, text];
      this._list = this._list.filter(([entry], position) => entry !== key || position === index);
    }
    *entries() {
      const names = Array.from(new Set(this._list.map(([name]) => name))).sort();
      for (const name of names) {
        if (name === 'set-cookie') for (const value of this.getSetCookie()) yield [name, value];
        else yield [name, this.get(name)];
      }
    }
    *keys() { for (const [name] of this.entries()) yield name; }
    *values() { for (const [, value] of this.entries()) yield value; }
    forEach(callback, thisArg) { for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this); }
    [Symbol.iterator]() { return this.entries(); }
    get [Symbol.toStringTag]() { return 'Headers'; }
  }

  // A body as text, with the content type it implies (Fetch's "extract a body").
  function extractBody(body) {
    if (body === undefined || body === null) return { text: null, type: null };
    if (typeof body === 'string') return { text: body, type: 'text/plain;charset=UTF-8' };
    if (body instanceof URLSearchParams) return { text: body.toString(), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
    if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
      try {
        return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), type: null };
      } catch (error) {
        throw new TypeError('fetch: a body of bytes that are not UTF-8 text cannot be sent (net.request carries text)');
      }
    }
    return { text: String(body), type: 'text/plain;charset=UTF-8' };
  }

  // The Body mixin: one read of the body, as text, JSON or bytes.
  class Body {
    get bodyUsed() { return this._used; }
    get body() { return null; }
    _consume(who) {
      if (this._used) return Promise.reject(new TypeError(`${who}: the body has already been read`));
      this._used = true;
      return Promise.resolve(this._text === null ? '' : this._text);
    }
    text() { return this._consume('text()'); }
    json() { return this._consume('json()').then((text) => JSON.parse(text)); }
    arrayBuffer() { return this._consume('arrayBuffer()').then((text) => new TextEncoder().encode(text).buffer); }
    bytes() { return this._consume('bytes()').then((text) => new TextEncoder().encode(text)); }
  }

  const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];
  class Request extends Body {
    constructor(input, init = {}) {
      super();
      const from = input instanceof Request ? input : null;
      let url;
      try {
        url = new URL(from ? from.url : String(input));
      } catch (error) {
        throw new TypeError(`Request: ${JSON.stringify(String(input))} is not a valid absolute URL`);
      }
      if (url.username !== '' || url.password !== '') throw new TypeError(`Request: ${url.href} has credentials in it; send them in a header`);
      let method = init.method !== undefined ? String(init.method) : (from ? from.method : 'GET');
      if (!TOKEN.test(method)) throw new TypeError(`Request: "${method}" is not a valid method`);
      if (METHODS.includes(method.toUpperCase())) method = method.toUpperCase();
      this._url = url.href;
      this._method = method;
      this._headers = new Headers(init.headers !== undefined ? init.headers : (from ? from.headers : undefined));
      this._signal = init.signal !== undefined && init.signal !== null ? init.signal : (from ? from.signal : new AbortController().signal);
      const body = init.body !== undefined ? extractBody(init.body) : { text: from ? from._text : null, type: null };
      if (body.text !== null && (method === 'GET' || method === 'HEAD')) throw new TypeError(`Request: a ${method} request cannot have a body`);
      if (body.type !== null && !this._headers.has('content-type')) this._headers.set('content-type', body.type);
      this._text = body.text;
      this._used = false;
    }
    get url() { return this._url; }
    get method() { return this._method; }
    get headers() { return this._headers; }
    get signal() { return this._signal; }
    clone() {
      if (this._used) throw new TypeError('Request.clone: the body has already been read');
      return new Request(this);
    }
    get [Symbol.toStringTag]() { return 'Request'; }
  }

  const STATUS_TEXT = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 206: 'Partial Content', 301: 'Moved Permanently',
    302: 'Found', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request',
    401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 409: 'Conflict',
    410: 'Gone', 413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests',
    500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };
  class Response extends Body {
    constructor(body = null, init = {}) {
      super();
      const status = init.status === undefined ? 200 : Number(init.status);
      if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`Response: the status ${init.status} is not from 200 to 599`);
      const extracted = extractBody(body);
      this._status = status;
      this._statusText = init.statusText === undefined ? '' : String(init.statusText);
      this._headers = new Headers(init.headers);
      if (extracted.type !== null && !this._headers.has('content-type')) this._headers.set('content-type', extracted.type);
      this._text = extracted.text;
      this._used = false;
      this._url = '';
      this._type = 'default';
    }
    static json(data, init = {}) {
      const response = new Response(JSON.stringify(data), init);
      response._headers.set('content-type', 'application/json');
      return response;
    }
    static error() {
      const response = new Response(null, { status: 200 });
      response._status = 0;
      response._type = 'error';
      return response;
    }
    get status() { return this._status; }
    get statusText() { return this._statusText; }
    get ok() { return this._status >= 200 && this._status <= 299; }
    get headers() { return this._headers; }
    get url() { return this._url; }
    get type() { return this._type; }
    get redirected() { return false; }
    clone() {
      if (this._used) throw new TypeError('Response.clone: the body has already been read');
      const copy = new Response(this._text, { status: this._status === 0 ? 200 : this._status, statusText: this._statusText, headers: this._headers });
      Object.assign(copy, { _status: this._status, _url: this._url, _type: this._type });
      return copy;
    }
    get [Symbol.toStringTag]() { return 'Response'; }
  }

  // fetch(input, init): one net.request, aborted by init.signal. A failure to get any answer
  // rejects with a TypeError (as browsers do) naming the URL and why, with the service error's
  // code (E_DENIED without the permission net.request, E_TIMEOUT, E_FAILED) and its cause.
  function fetch(input, init) {
    let request;
    try {
      request = new Request(input, init);
    } catch (error) {
      return Promise.reject(error);
    }
    if (request.signal.aborted) return Promise.reject(request.signal.reason);
    const headers = {};
    for (const [name, value] of request.headers) headers[name] = value;
    const params = { url: request.url, method: request.method, headers };
    if (request._text !== null) params.body = request._text;
    const site = new Error();
    return hybrid.call('net.request', params, { signal: request.signal }).then((answer) => {
      // The body as the server sent it: no content type is made up for it.
      const response = new Response(null, { headers: answer.headers, statusText: STATUS_TEXT[answer.status] || '' });
      Object.assign(response, { _status: answer.status, _text: answer.body, _url: request.url, _type: 'basic' });
      return response;
    }, (error) => {
      if (request.signal.aborted && error === request.signal.reason) throw error;
      const failure = new TypeError(`fetch ${request.url}: ${error.message}`);
      failure.code = error.code;
      failure.cause = error;
      failure.stack = `${failure.name}: ${failure.message}\n${String(site.stack).split('\n').slice(1).join('\n')}`;
      throw failure;
    });
  }

  define('Headers', Headers);
  define('Request', Request);
  define('Response', Response);
  define('fetch', fetch);
})
