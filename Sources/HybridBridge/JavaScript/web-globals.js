// The web globals (SPEC §3: URL and URLSearchParams, DOMException, AbortController and
// AbortSignal, TextEncoder and TextDecoder, atob and btoa, structuredClone, performance, fetch
// with Headers, Request and Response) as accessors until one is first used: then Swift
// evaluates url-hosts.js, url-parser.js, url.js, web.js and fetch.js (`native.loadWebGlobals`)
// and this file calls them, their definitions replacing the accessors. Their text is a third of
// the bridge's JavaScript and most apps use none of them, so a context starts without parsing
// it (BENCHMARKS.md, "Start-up").
//
// Loading happens inside the script that first uses a global, under its time limit: what it
// throws (a runaway stopped, say) is thrown there, and the next use tries again. A global a
// script took over before the load (assigned, redefined, deleted, frozen) stays the script's.
// Evaluated once per context, after the prelude; returns nothing for Swift.
(function (native) {
  'use strict';
  const global = globalThis;
  // Every global the five scripts define, and nothing else (a test holds the list to them).
  const names = ['URL', 'URLSearchParams', 'DOMException', 'AbortSignal', 'AbortController', 'TextEncoder', 'TextDecoder',
    'btoa', 'atob', 'structuredClone', 'performance', 'Headers', 'Request', 'Response', 'fetch'];
  // Each name's getter, to tell the accessor from what a script put in its place, and the
  // values the scripts defined (an accessor frozen with the global object keeps answering them).
  const getters = new Map();
  const values = new Map();
  const descriptorOf = (name) => Object.getOwnPropertyDescriptor(global, name);
  // How the five scripts define their globals: only where the accessor still stands.
  const define = (name, value) => {
    const descriptor = descriptorOf(name);
    if (descriptor === undefined || descriptor.get !== getters.get(name)) return;
    values.set(name, value);
    if (descriptor.configurable) Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  };
  let loading = false;
  let loaded = false;
  const load = () => {
    if (loading || loaded) return;
    loading = true;
    try {
      const scripts = native.loadWebGlobals();
      const hosts = scripts['url-hosts']();
      scripts.url(hosts, scripts['url-parser'](hosts), define);
      scripts.web(native, define);
      scripts.fetch(define);
      loaded = true;
    } finally {
      // Stopped halfway, the accessors left try again when next used.
      loading = false;
    }
  };
  for (const name of names) {
    // While the scripts load, a global they read before defining it is undefined, as it was
    // before this file existed.
    const get = () => { load(); return values.get(name); };
    getters.set(name, get);
    Object.defineProperty(global, name, {
      configurable: true,
      enumerable: false,
      get,
      set(value) {
        load();
        if (descriptorOf(name).configurable) {
          Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
        } else {
          values.set(name, value);
        }
      },
    });
  }
})
