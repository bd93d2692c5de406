// The hot-fix globals (SPEC §3 `patch`, `defineClass`, `self`), whose script (patches.js) is
// evaluated the first time a script reads `patch` or `defineClass`: then Swift evaluates it
// (`native.loadScript`) and this file calls it. Most runs patch nothing, and patches.js was the
// largest script a context evaluated as it started (BENCHMARKS.md, "Start-up").
//
// Until then no hook exists: asked whether anything is hooked, or which hook was running,
// these stand-ins answer as an empty table would; the other calls (made only once something is
// hooked) load the table and pass on. Each global is read-only and permanent, as patches.js
// made them before: an accessor with no setter that cannot be redefined or deleted. Loading
// happens inside the entry that first needs it, under its time limit: what it throws (a runaway
// stopped, say) is thrown there, and the next read tries again. patches.js then runs against
// the built-ins as the app left them (Map, WeakSet…): a bundle's patch scripts, which run
// first, are not affected; a script that replaced those before its first `patch` breaks its
// own patches. Evaluated once per context, before prelude.js; returns stand-ins of the same
// shape as what patches.js returns (`forPrelude` for the prelude, `forSwift` for
// PatchEntryPoint in EntryPoints.swift).
(function (native) {
  'use strict';
  const global = globalThis;
  // What patches.js returned: `{patch, defineClass, forPrelude, forSwift}`.
  let table = null;
  const load = () => table === null ? (table = native.loadScript({ name: 'patches' })(native)) : table;
  // defineClass binds `self` around each method it runs; outside them it is undefined.
  Object.defineProperty(global, 'self', { value: undefined, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(global, 'patch', { get: () => load().patch, enumerable: false, configurable: false });
  Object.defineProperty(global, 'defineClass', { get: () => load().defineClass, enumerable: false, configurable: false });
  const forPrelude = Object.freeze({
    hooked: (prefix, name) => table !== null && table.forPrelude.hooked(prefix, name),
    invoke: (target, original, args) => load().forPrelude.invoke(target, original, args),
    invokeAsync: (target, original, args) => load().forPrelude.invokeAsync(target, original, args),
  });
  const forSwift = Object.freeze({
    method: (target, original, args) => load().forSwift.method(target, original, args),
    handler: (target, fn, args) => load().forSwift.handler(target, fn, args),
    service: (name, params, done) => load().forSwift.service(name, params, done),
    runaway: () => table === null ? null : table.forSwift.runaway(),
    fail: (id, revoking) => { if (table !== null) table.forSwift.fail(id, revoking); },
  });
  return Object.freeze({ forPrelude, forSwift });
})
