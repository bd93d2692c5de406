// SPEC §3's ui.*, state.* and store.* globals, built on the natives a host app supplies (UINatives,
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
    // A box over the screen with the focus trapped in it: resolves with the chosen button's
    // id, or null when Esc cancels it.
    dialog(options) {
      if (options === null || typeof options !== 'object') throw new TypeError('ui.dialog({title, text, buttons}): expected an object');
      const buttons = options.buttons === undefined ? [] : options.buttons;
      if (!Array.isArray(buttons)) throw new TypeError('ui.dialog: buttons must be an array of {id, label}');
      const checked = buttons.map((button, index) => {
        if (button === null || typeof button !== 'object' || button.id === undefined) {
          throw new TypeError(`ui.dialog: buttons[${index}] must be an object with an id and a label`);
        }
        return { id: String(button.id), label: String(button.label === undefined ? button.id : button.label) };
      });
      return new Promise((resolve) => native.dialog({
        title: options.title === undefined ? '' : String(options.title),
        text: options.text === undefined ? '' : String(options.text),
        buttons: checked,
        done: resolve,
      }));
    },
    // A short message at the top right that does not take the focus.
    toast(text, options) {
      const o = options || {};
      const level = o.level === undefined ? 'info' : String(o.level);
      if (!['info', 'warn', 'error'].includes(level)) throw new TypeError(`ui.toast: level is "info", "warn" or "error", not ${JSON.stringify(level)}`);
      const ms = o.ms === undefined ? 3000 : Number(o.ms);
      if (!Number.isFinite(ms) || ms < 0) throw new TypeError(`ui.toast: ms must be a number of milliseconds, not ${String(o.ms)}`);
      native.toast({ text: String(text), level, ms });
    },
  };
  // state.* acts on the screen on top; before one opens there is none, and a value set then
  // would be lost: say so, and where such data belongs.
  const needScreen = (call) => {
    if (native.screen() !== null) return;
    const error = new Error(`${call}: no screen is open yet (the entry script runs before the start screen shows); ` +
      'keep data that outlives a screen in the app store: store.set(path, value), read as @{store.PATH}');
    error.code = 'E_NO_SCREEN';
    throw error;
  };
  const handle = (id) => Object.freeze({ remove() { native.unwatch({ id }); } });
  const state = {
    get(path) {
      needScreen('state.get');
      return native.get({ path: path === undefined ? '' : String(path) });
    },
    set(path, value) {
      needScreen('state.set');
      native.set({ path: String(path), value: value === undefined ? null : value });
    },
    watch(path, fn) {
      if (typeof fn !== 'function') throw new TypeError('state.watch(path, fn): fn must be a function');
      needScreen('state.watch');
      return handle(native.watch({ path: String(path), fn }));
    },
  };
  const store = {
    get(path) { return native.storeGet({ path: path === undefined ? '' : String(path) }); },
    set(path, value) { native.storeSet({ path: String(path), value: value === undefined ? null : value }); },
    watch(path, fn) {
      if (typeof fn !== 'function') throw new TypeError('store.watch(path, fn): fn must be a function');
      return handle(native.storeWatch({ path: path === undefined ? '' : String(path), fn }));
    },
  };
  Object.defineProperty(globalThis, 'ui', { value: Object.freeze(ui), enumerable: false });
  Object.defineProperty(globalThis, 'state', { value: Object.freeze(state), enumerable: false });
  Object.defineProperty(globalThis, 'store', { value: Object.freeze(store), enumerable: false });
})
