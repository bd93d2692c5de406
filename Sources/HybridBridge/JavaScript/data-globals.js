// The api (SPEC §7.2) and db (§7.3) globals, whose scripts (api.js, db.js) are evaluated the
// first time a script reads one, or Swift needs one (a screen's data block loads through
// api.call; a db.watch delivers its rows): then Swift evaluates the script
// (`native.loadDataGlobal`) and this file calls it. Their text is two fifths of what a context
// evaluated as it started, and most apps use neither (BENCHMARKS.md, "Start-up").
//
// Each global is read-only and permanent, as the scripts made them before: an accessor with no
// setter that cannot be redefined or deleted. Loading happens inside the entry that first
// needs it, under its time limit: what it throws (a runaway stopped, say) is thrown there, and
// the next use tries again. Evaluated once per context, after the prelude, which hands over
// its `serviceError`; returns the functions Swift calls into (DataEntryPoint in
// EntryPoints.swift), which load what they forward to.
(function (native, serviceError) {
  'use strict';
  const global = globalThis;
  // What each script returned: `{global, loadData}` (api.js), `{global, deliver}` (db.js).
  const loaded = new Map();
  function load(name) {
    let exports = loaded.get(name);
    if (exports === undefined) {
      exports = native.loadDataGlobal({ name })(native, serviceError);
      loaded.set(name, exports);
    }
    return exports;
  }
  for (const name of ['api', 'db']) {
    Object.defineProperty(global, name, { get: () => load(name).global, enumerable: false, configurable: false });
  }
  return Object.freeze({
    loadData: (request, id) => load('api').loadData(request, id),
    deliver: (id, rows, error) => load('db').deliver(id, rows, error),
  });
})
