// The web globals (SPEC §3: URL and URLSearchParams, DOMException, AbortController and
// AbortSignal, TextEncoder and TextDecoder, atob and btoa, structuredClone, performance, fetch
// with Headers, Request and Response) as accessors until one is first used: then Swift
// evaluates url-hosts.js, url-parser.js, url.js, web.js and fetch.js (`native.loadWebGlobals`),
// whose definitions replace the accessors. Their text is a third of the bridge's JavaScript and
// most apps use none of them, so a context starts without parsing it (BENCHMARKS.md,
// "Start-up"). Assigning one loads them first, so a script's own value is not overwritten later.
// Evaluated once per context, after the prelude; returns nothing for Swift.
(function (native) {
  'use strict';
  const global = globalThis;
  // Every global the five scripts define, and nothing else (a test holds the list to them).
  const names = ['URL', 'URLSearchParams', 'DOMException', 'AbortSignal', 'AbortController', 'TextEncoder', 'TextDecoder',
    'btoa', 'atob', 'structuredClone', 'performance', 'Headers', 'Request', 'Response', 'fetch'];
  let loaded = false;
  const load = () => {
    if (loaded) return;
    loaded = true;
    native.loadWebGlobals();
  };
  // While the scripts load, a global they read before defining it is undefined, as it was
  // before this file existed.
  const valueOf = (name) => {
    const descriptor = Object.getOwnPropertyDescriptor(global, name);
    return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
  };
  for (const name of names) {
    Object.defineProperty(global, name, {
      configurable: true,
      enumerable: false,
      get() { load(); return valueOf(name); },
      set(value) {
        load();
        Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
      },
    });
  }
})
