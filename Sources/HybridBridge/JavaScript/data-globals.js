// The api (SPEC §7.2) and db (§7.3) globals, whose scripts (api.js, db.js) are evaluated the
// first time a script reads one, or Swift needs one (a screen's data block loads through
// api.call; a db.watch delivers its rows): then Swift evaluates the script
// (`native.loadScript`) and this file calls it. Their text is two fifths of what a context
// evaluated as it started, and most apps use neither (BENCHMARKS.md, "Start-up").
//
// Each global is read-only and permanent, as the scripts made them before: an accessor with no
// setter that cannot be redefined or deleted. Loading happens inside the entry that first
// needs it, under its time limit: what it throws (a runaway stopped, say) is thrown there, and
// the next use tries again. Evaluated once per context, after the prelude, which hands over
// its `serviceError`; returns the functions Swift calls into (DataEntryPoint in
// EntryPoints.swift), which load what they forward to.
//
// The scripts load after the app's own may have replaced built-ins, so what this file relies on
// is taken now, before any app script runs: the loaded exports live in plain variables (not a
// Map a script could patch), and each global is frozen with the original Object.freeze.
(function (native, serviceError) {
  'use strict';
  const global = globalThis;
  const freeze = Object.freeze;
  // What each script returned: `{global, loadData}` (api.js), `{global, deliver}` (db.js).
  let api = null;
  let db = null;
  function load(name) {
    const exports = native.loadScript({ name })(native, serviceError);
    freeze(exports.global);
    return exports;
  }
  const loadAPI = () => api === null ? (api = load('api')) : api;
  const loadDB = () => db === null ? (db = load('db')) : db;
  Object.defineProperty(global, 'api', { get: () => loadAPI().global, enumerable: false, configurable: false });
  Object.defineProperty(global, 'db', { get: () => loadDB().global, enumerable: false, configurable: false });
  return freeze({
    loadData: (request, id) => loadAPI().loadData(request, id),
    deliver: (id, rows, error) => loadDB().deliver(id, rows, error),
  });
})
