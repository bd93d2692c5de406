// SPEC §3's URL and URLSearchParams, after the WHATWG URL Standard (url.spec.whatwg.org), on the
// parts of url-hosts.js and url-parser.js. Called by web-globals.js after them, with its
// `define`; defines the two globals and returns nothing. The names follow the standard's (states,
// percent-encode sets, "shorten a path", …) so a reader can hold the three files against it
// section by section.
(function (hosts, parser, define) {
  'use strict';
  const {
    FAILURE, percentEncodeString, toUSVString, userinfoSet
  } = hosts;
  const {
    basicParse, cannotHaveCredentialsOrPort, fragmentState, hasOpaquePath, hostState, hostnameState,
      parseFormURLEncoded, pathStartState, portState, queryState, schemeStartState, serializeFormURLEncoded,
      serializeOrigin, serializePath, serializeURL
  } = parser;

  // MARK: The URL class (§6.1)

  // Each URL's record and URLSearchParams; each URLSearchParams' list and URL (or null).
  const urls = new WeakMap();
  const searchParamsLists = new WeakMap();

  function recordOf(object) {
    const state = urls.get(object);
    if (state === undefined) throw new TypeError('Illegal invocation: not a URL');
    return state;
  }
  function paramsOf(object) {
    const state = searchParamsLists.get(object);
    if (state === undefined) throw new TypeError('Illegal invocation: not a URLSearchParams');
    return state;
  }
  function requireArguments(count, needed, name) {
    if (count < needed) throw new TypeError(`${name} needs ${needed} argument${needed > 1 ? 's' : ''}, got ${count}`);
  }

  // The URL for `url` against `base`, or FAILURE (a base that does not parse fails too).
  function parseAgainst(url, base) {
    let parsedBase = null;
    if (base !== undefined) {
      parsedBase = basicParse(toUSVString(base));
      if (parsedBase === FAILURE) return FAILURE;
    }
    return basicParse(toUSVString(url), parsedBase);
  }

  function setQueryList(state) {
    const list = paramsOf(state.searchParams).list;
    list.length = 0;
    if (state.url.query !== null) list.push(...parseFormURLEncoded(state.url.query));
  }

  class URL {
    constructor(url, base = undefined) {
      requireArguments(arguments.length, 1, 'URL');
      const parsed = parseAgainst(url, base);
      if (parsed === FAILURE) {
        const input = toUSVString(url);
        throw new TypeError(base === undefined ? `Invalid URL: ${input}` : `Invalid URL: ${input} (against ${toUSVString(base)})`);
      }
      const state = { url: parsed, searchParams: null };
      urls.set(this, state);
      // Built empty and filled from the query as it is: the constructor would drop a leading "?".
      state.searchParams = new URLSearchParams();
      searchParamsLists.get(state.searchParams).url = this;
      setQueryList(state);
    }

    static canParse(url, base = undefined) {
      requireArguments(arguments.length, 1, 'URL.canParse');
      return parseAgainst(url, base) !== FAILURE;
    }

    static parse(url, base = undefined) {
      requireArguments(arguments.length, 1, 'URL.parse');
      return parseAgainst(url, base) === FAILURE ? null : new URL(url, base);
    }

    get href() { return serializeURL(recordOf(this).url); }
    set href(value) {
      const state = recordOf(this);
      const parsed = basicParse(toUSVString(value));
      if (parsed === FAILURE) throw new TypeError(`Invalid URL: ${toUSVString(value)}`);
      state.url = parsed;
      setQueryList(state);
    }

    get origin() { return serializeOrigin(recordOf(this).url); }

    get protocol() { return recordOf(this).url.scheme + ':'; }
    set protocol(value) {
      const url = recordOf(this).url;
      basicParse(toUSVString(value) + ':', null, url, schemeStartState);
    }

    get username() { return recordOf(this).url.username; }
    set username(value) {
      const url = recordOf(this).url;
      if (!cannotHaveCredentialsOrPort(url)) url.username = percentEncodeString(toUSVString(value), userinfoSet);
    }

    get password() { return recordOf(this).url.password; }
    set password(value) {
      const url = recordOf(this).url;
      if (!cannotHaveCredentialsOrPort(url)) url.password = percentEncodeString(toUSVString(value), userinfoSet);
    }

    get host() {
      const url = recordOf(this).url;
      if (url.host === null) return '';
      return url.port === null ? url.host : url.host + ':' + url.port;
    }
    set host(value) {
      const url = recordOf(this).url;
      if (!hasOpaquePath(url)) setWithOverride(url, toUSVString(value), hostState);
    }

    get hostname() { return recordOf(this).url.host ?? ''; }
    set hostname(value) {
      const url = recordOf(this).url;
      if (!hasOpaquePath(url)) setWithOverride(url, toUSVString(value), hostnameState);
    }

    get port() {
      const port = recordOf(this).url.port;
      return port === null ? '' : String(port);
    }
    set port(value) {
      const url = recordOf(this).url;
      if (cannotHaveCredentialsOrPort(url)) return;
      value = toUSVString(value);
      if (value === '') url.port = null;
      else setWithOverride(url, value, portState);
    }

    get pathname() { return serializePath(recordOf(this).url); }
    set pathname(value) {
      const url = recordOf(this).url;
      if (hasOpaquePath(url)) return;
      url.path = [];
      setWithOverride(url, toUSVString(value), pathStartState);
    }

    get search() {
      const query = recordOf(this).url.query;
      return query === null || query === '' ? '' : '?' + query;
    }
    set search(value) {
      const state = recordOf(this);
      const url = state.url;
      value = toUSVString(value);
      if (value === '') {
        url.query = null;
        paramsOf(state.searchParams).list.length = 0;
        return;
      }
      const input = value[0] === '?' ? value.slice(1) : value;
      url.query = '';
      basicParse(input, null, url, queryState);
      paramsOf(state.searchParams).list.splice(0, Infinity, ...parseFormURLEncoded(input));
    }

    get searchParams() { return recordOf(this).searchParams; }

    get hash() {
      const fragment = recordOf(this).url.fragment;
      return fragment === null || fragment === '' ? '' : '#' + fragment;
    }
    set hash(value) {
      const url = recordOf(this).url;
      value = toUSVString(value);
      if (value === '') {
        url.fragment = null;
        return;
      }
      url.fragment = '';
      basicParse(value[0] === '#' ? value.slice(1) : value, null, url, fragmentState);
    }

    toString() { return this.href; }
    toJSON() { return this.href; }
  }

  // As the standard says, a setter's parse changes the URL in place and its failure is
  // ignored: "example.com:" given to the host setter changes the host and keeps the port.
  function setWithOverride(url, value, state) {
    basicParse(value, null, url, state);
  }

  // MARK: The URLSearchParams class (§6.2)

  function initialList(init) {
    if (init !== null && (typeof init === 'object' || typeof init === 'function')) {
      if (typeof init[Symbol.iterator] === 'function') {
        return Array.from(init, (pair) => {
          const items = typeof pair === 'string' || pair === null || pair === undefined ? null : Array.from(pair);
          if (items === null || items.length !== 2) throw new TypeError('URLSearchParams: each pair needs exactly a name and a value');
          return [toUSVString(items[0]), toUSVString(items[1])];
        });
      }
      const list = [];
      for (const key of Reflect.ownKeys(init)) {
        const descriptor = Reflect.getOwnPropertyDescriptor(init, key);
        if (typeof key === 'string' && descriptor !== undefined && descriptor.enumerable) {
          list.push([toUSVString(key), toUSVString(init[key])]);
        }
      }
      return list;
    }
    const string = init === undefined ? '' : toUSVString(init);
    return parseFormURLEncoded(string[0] === '?' ? string.slice(1) : string);
  }

  class URLSearchParams {
    constructor(init = undefined) {
      searchParamsLists.set(this, { list: initialList(init), url: null });
    }

    get size() { return paramsOf(this).list.length; }

    append(name, value) {
      requireArguments(arguments.length, 2, 'URLSearchParams.append');
      const state = paramsOf(this);
      state.list.push([toUSVString(name), toUSVString(value)]);
      update(state);
    }

    delete(name, value = undefined) {
      requireArguments(arguments.length, 1, 'URLSearchParams.delete');
      const state = paramsOf(this);
      name = toUSVString(name);
      const match = value === undefined ? (pair) => pair[0] === name : ((v) => (pair) => pair[0] === name && pair[1] === v)(toUSVString(value));
      state.list.splice(0, Infinity, ...state.list.filter((pair) => !match(pair)));
      update(state);
    }

    get(name) {
      requireArguments(arguments.length, 1, 'URLSearchParams.get');
      name = toUSVString(name);
      const pair = paramsOf(this).list.find((item) => item[0] === name);
      return pair === undefined ? null : pair[1];
    }

    getAll(name) {
      requireArguments(arguments.length, 1, 'URLSearchParams.getAll');
      name = toUSVString(name);
      return paramsOf(this).list.filter((pair) => pair[0] === name).map((pair) => pair[1]);
    }

    has(name, value = undefined) {
      requireArguments(arguments.length, 1, 'URLSearchParams.has');
      name = toUSVString(name);
      const v = value === undefined ? undefined : toUSVString(value);
      return paramsOf(this).list.some((pair) => pair[0] === name && (v === undefined || pair[1] === v));
    }

    set(name, value) {
      requireArguments(arguments.length, 2, 'URLSearchParams.set');
      const state = paramsOf(this);
      name = toUSVString(name);
      value = toUSVString(value);
      const first = state.list.findIndex((pair) => pair[0] === name);
      if (first < 0) {
        state.list.push([name, value]);
      } else {
        state.list[first] = [name, value];
        state.list.splice(0, Infinity, ...state.list.filter((pair, index) => index <= first || pair[0] !== name));
      }
      update(state);
    }

    // Stable, by UTF-16 code units (which is what < compares).
    sort() {
      const state = paramsOf(this);
      state.list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      update(state);
    }

    // Live: entries appended while iterating are reached, as the standard's iterator does.
    *entries() {
      const list = paramsOf(this).list;
      for (let i = 0; i < list.length; i++) yield [list[i][0], list[i][1]];
    }
    *keys() { for (const [name] of this.entries()) yield name; }
    *values() { for (const [, value] of this.entries()) yield value; }

    forEach(callback, thisArgument = undefined) {
      if (typeof callback !== 'function') throw new TypeError('URLSearchParams.forEach needs a function');
      const list = paramsOf(this).list;
      for (let i = 0; i < list.length; i++) callback.call(thisArgument, list[i][1], list[i][0], this);
    }

    toString() { return serializeFormURLEncoded(paramsOf(this).list); }
  }
  Object.defineProperty(URLSearchParams.prototype, Symbol.iterator,
    { value: URLSearchParams.prototype.entries, writable: true, configurable: true, enumerable: false });

  // The URL a URLSearchParams belongs to follows every change to it.
  function update(state) {
    if (state.url === null) return;
    const serialized = serializeFormURLEncoded(state.list);
    recordOf(state.url).url.query = serialized === '' ? null : serialized;
  }

  for (const [name, constructor] of [['URL', URL], ['URLSearchParams', URLSearchParams]]) {
    Object.defineProperty(constructor.prototype, Symbol.toStringTag, { value: name, configurable: true });
    define(name, constructor);
  }
})
