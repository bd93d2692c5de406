// Hot fixes (SPEC §3): the patch table behind patch.replace/before/after and defineClass.
// What hooks do — their order, what a failing hook costs, when one is disabled — is described
// once, in docs/hot-fixes.md; this file implements it. Built on the natives declared in
// Sources/HybridBridge/Natives.swift. Evaluated once per context, when a script first reads
// `patch` or `defineClass` (patch-globals.js, which defines those globals and `self`); returns
// them, with the calls the prelude makes (`forPrelude`) and those Swift makes (`forSwift`,
// declared in EntryPoints.swift), so a call nobody patched never comes here: Swift is told
// which targets have a live hook (native.hooked).
(function (native) {
  'use strict';
  const global = globalThis;
  const LIMIT = native.patchFailureLimit();
  const table = new Map();      // target → its hooks, in registration order
  const byId = new Map();       // hook id → hook, for Swift to blame one
  let nextId = 1;
  // The hooks running now, innermost last (null while an original runs). The time limit ends an
  // entry without running any catch or finally, so what is left here tells Swift whom to blame.
  const running = [];
  // Errors a Swift original threw because a hook passed it arguments it cannot take.
  const callerFaults = new WeakSet();
  const THREW = Object.freeze({});

  function describe(value) {
    return typeof value === 'string' ? JSON.stringify(value) : String(value);
  }
  function isThenable(value) {
    return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function';
  }

  function add(kind, target, fn) {
    const match = typeof target === 'string' ? /^(service|handler|method):(.+)$/.exec(target) : null;
    if (match === null) {
      throw new TypeError(`patch.${kind}(target, fn): the target must be "service:NAME", "handler:NAME" or "method:Type.name", not ${describe(target)}`);
    }
    if (typeof fn !== 'function') throw new TypeError(`patch.${kind}(target, fn): fn must be a function, not ${describe(fn)}`);
    // Services and methods may be declared later, so an unknown one is only warned about.
    native.checkTarget({ kind: match[1], name: match[2], stack: String(new Error().stack || '') });
    const hook = { id: nextId++, kind, target, fn, failures: 0, previous: 0, disabled: false };
    let hooks = table.get(target);
    if (hooks === undefined) table.set(target, (hooks = []));
    hooks.push(hook);
    byId.set(hook.id, hook);
    refresh(target);
    return Object.freeze({ target, kind, get disabled() { return hook.disabled; }, remove() { remove(hook); } });
  }
  function remove(hook) {
    const hooks = table.get(hook.target);
    const index = hooks === undefined ? -1 : hooks.indexOf(hook);
    if (index < 0) return;
    hooks.splice(index, 1);
    if (hooks.length === 0) table.delete(hook.target);
    byId.delete(hook.id);
    refresh(hook.target);
  }
  function refresh(target) {
    const hooks = table.get(target);
    native.hooked({ target, live: hooks !== undefined && hooks.some((hook) => !hook.disabled) });
  }

  // Failures in a row, per hook. `previous` keeps the count a success reset, in case Swift
  // revokes that success (a method result it cannot decode).
  function succeeded(hook) {
    hook.previous = hook.failures;
    hook.failures = 0;
  }
  function count(hook, revoking) {
    if (revoking) hook.failures = hook.previous;
    hook.failures += 1;
    if (hook.failures < LIMIT || hook.disabled) return;
    hook.disabled = true;
    refresh(hook.target);
    native.patchNotice({ text: `patch on ${hook.target} disabled after ${hook.failures} failures; the original runs again` });
  }
  function failed(hook, error, consequence, revoking) {
    native.patchFailed({ error, note: `in a patch.${hook.kind} hook on ${hook.target}; ${consequence}` });
    count(hook, revoking);
  }

  // A before or after hook; THREW when it threw (reported and counted).
  function attempt(hook, values, consequence) {
    running.push(hook);
    try {
      const value = hook.fn(...values);
      succeeded(hook);
      return value;
    } catch (error) {
      failed(hook, error, consequence, false);
      return THREW;
    } finally {
      running.pop();
    }
  }
  function marked(original) {
    return (...args) => {
      running.push(null);
      try { return original(...args); } finally { running.pop(); }
    };
  }
  // A replace hook around `inner`. What `inner` throws (or, async, rejects with) through the
  // hook is not the hook's fault and passes on; anything else makes this call run `inner`.
  function replaced(hook, inner, trace, async) {
    return (...args) => {
      const passed = [];
      const original = (...values) => {
        let result;
        try {
          result = inner(...values);
        } catch (error) {
          if (!callerFaults.has(error)) passed.push(error);
          throw error;
        }
        if (!async || !isThenable(result)) return result;
        return Promise.resolve(result).catch((error) => { passed.push(error); throw error; });
      };
      let result;
      let threw = false;
      running.push(hook);
      try {
        result = hook.fn(original, ...args);
      } catch (error) {
        if (passed.includes(error)) throw error;
        threw = true;
        failed(hook, error, 'the original ran instead', false);
      } finally {
        running.pop();
      }
      if (threw) return inner(...args);
      let thenable = false;
      try {
        thenable = async && isThenable(result);
      } catch (error) {
        // A value whose `then` cannot even be read (a throwing getter, a Proxy's trap) is the
        // hook's failure too: thrown from here, it ended the call before it had a promise.
        failed(hook, error, 'the original ran instead', false);
        return inner(...args);
      }
      succeeded(hook);
      if (trace !== null) trace.by = hook.id;
      if (!thenable) return result;
      return Promise.resolve(result).catch((error) => {
        if (passed.includes(error)) throw error;
        failed(hook, error, 'the original ran instead', true);
        return inner(...args);
      });
    };
  }

  // original(...args) through the hooks on `target`. `trace.by` becomes the id of the hook whose
  // value is the result; `async` (hybrid.call) waits for the result before the after hooks.
  function invoke(target, original, args, trace, async) {
    const hooks = table.get(target);
    if (hooks === undefined) return original(...args);
    let call = marked(original);
    const afters = [];
    for (const hook of hooks.filter((each) => !each.disabled)) {
      if (hook.kind === 'before') attempt(hook, args, 'it was skipped for this call');
      else if (hook.kind === 'replace') call = replaced(hook, call, trace, async);
      else afters.push(hook);
    }
    const result = call(...args);
    if (async) return afters.length === 0 ? Promise.resolve(result) : Promise.resolve(result).then((value) => settle(afters, value, args));
    let value = result;
    for (const hook of afters) {
      const next = attempt(hook, [value, ...args], 'the result is unchanged');
      if (next === THREW || next === undefined) continue;
      value = next;
      if (trace !== null) trace.by = hook.id;
    }
    return value;
  }
  async function settle(afters, value, args) {
    for (const hook of afters) {
      let next = attempt(hook, [value, ...args], 'the result is unchanged');
      if (isThenable(next)) {
        try {
          next = await next;
        } catch (error) {
          failed(hook, error, 'the result is unchanged', true);
          continue;
        }
      }
      if (next !== THREW && next !== undefined) value = next;
    }
    return value;
  }

  // defineClass: a replace hook per method, with `self` (and `this`) bound to an object holding
  // ORIG<name> for each listed method. Saved and restored around each call, so nested and
  // re-entrant calls see their own; `outerSelf` is what a runaway leaves to restore.
  let bindings = 0;
  let outerSelf;
  function defineClass(type, methods) {
    if (typeof type !== 'string' || !/^\S+$/.test(type)) {
      throw new TypeError(`defineClass(type, methods): type must be a type name such as "Cart", not ${describe(type)}`);
    }
    if (methods === null || typeof methods !== 'object') {
      throw new TypeError(`defineClass("${type}", methods): methods must be an object of functions, not ${describe(methods)}`);
    }
    const names = Object.keys(methods);
    if (names.length === 0) throw new TypeError(`defineClass("${type}", methods): methods lists no functions`);
    for (const name of names) {
      if (typeof methods[name] !== 'function') {
        throw new TypeError(`defineClass("${type}", methods): methods.${name} must be a function, not ${describe(methods[name])}`);
      }
    }
    const handles = names.map((name) => add('replace', `method:${type}.${name}`, (original, ...args) => {
      const bound = Object.create(null);
      for (const other of names) {
        bound['ORIG' + other] = other === name ? original : (...values) => native.callMethod({ name: `${type}.${other}`, args: values });
      }
      const saved = global.self;
      if (bindings++ === 0) outerSelf = saved;
      global.self = bound;
      try {
        return methods[name].apply(bound, args);
      } finally {
        global.self = saved;
        bindings -= 1;
      }
    }));
    return Object.freeze({ remove() { for (const handle of handles) handle.remove(); } });
  }

  const patch = Object.freeze({
    replace(target, fn) { return add('replace', target, fn); },
    before(target, fn) { return add('before', target, fn); },
    after(target, fn) { return add('after', target, fn); },
  });
  // For the prelude's own calls (hybrid.call, callSync, registered handlers).
  const forPrelude = Object.freeze({
    hooked(prefix, name) { return table.size !== 0 && table.has(prefix + name); },
    invoke(target, original, args) { return invoke(target, original, args, null, false); },
    invokeAsync(target, original, args) { return invoke(target, original, args, null, true); },
  });
  // For calls that start in Swift (PatchHooks.swift).
  const forSwift = Object.freeze({
    // A patchable Swift function: [result, id of the hook that made it or 0], or null when the
    // Swift original threw (Swift rethrows its own error) or could not take the arguments.
    method(target, original, args) {
      const checked = (...values) => {
        try {
          return original(...values);
        } catch (error) {
          if (error !== null && typeof error === 'object' && error.code === 'E_BAD_ARGUMENT') callerFaults.add(error);
          throw error;
        }
      };
      const trace = { by: 0 };
      try {
        return [invoke(target, checked, args, trace, false), trace.by];
      } catch (error) {
        // A before hook that changed the arguments in place can leave them unusable.
        if (callerFaults.has(error)) native.patchFailed({ error, note: `in a patch hook on ${target}; the original ran with the call's own arguments` });
        return null;
      }
    },
    handler(target, fn, args) { return invoke(target, fn, args, null, false); },
    service(name, params, done) {
      global.hybrid.call(name, params).then((value) => done(true, value),
        (error) => done(false, String((error && error.code) || 'E_FAILED'), String(error && error.message !== undefined ? error.message : error)));
    },
    // After the time limit stopped an entry: the hook that was running, as [target, id].
    runaway() {
      const hook = running.length === 0 ? null : running[running.length - 1];
      running.length = 0;
      if (bindings > 0) {
        global.self = outerSelf;
        bindings = 0;
      }
      return hook === null ? null : [hook.target, hook.id];
    },
    fail(id, revoking) {
      const hook = byId.get(id);
      if (hook !== undefined) count(hook, revoking);
    },
  });
  return Object.freeze({ patch, defineClass, forPrelude, forSwift });
})
