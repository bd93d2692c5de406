// SPEC §3's ui.* and state.* globals, built on the natives a host app supplies (UINatives,
// declared in Sources/HybridBridge/Natives.swift). Evaluated once per context, after the
// prelude, when the host installs it (ScriptRuntime.installUI).
(function (native) {
  'use strict';
  const ui = {
    show(target) { native.show({ target, push: false }); },
    push(target) { native.show({ target, push: true }); },
    back() { native.back(); },
    update(id, props) {
      if (props === null || typeof props !== 'object') throw new TypeError('ui.update(id, props): props must be an object');
      native.update({ id: String(id), props });
    },
    component(name, fn) {
      if (typeof fn !== 'function') throw new TypeError('ui.component(name, fn): fn must be a function');
      native.component({ name: String(name), fn });
    },
    handler(name, fn) {
      if (typeof fn !== 'function') throw new TypeError('ui.handler(name, fn): fn must be a function');
      native.handler({ name: String(name), fn });
    },
    get screen() { return native.screen(); },
  };
  const state = {
    get(path) { return native.get({ path: path === undefined ? '' : String(path) }); },
    set(path, value) { native.set({ path: String(path), value: value === undefined ? null : value }); },
    watch(path, fn) {
      if (typeof fn !== 'function') throw new TypeError('state.watch(path, fn): fn must be a function');
      native.watch({ path: String(path), fn });
    },
  };
  Object.defineProperty(globalThis, 'ui', { value: Object.freeze(ui), enumerable: false });
  Object.defineProperty(globalThis, 'state', { value: Object.freeze(state), enumerable: false });
})
