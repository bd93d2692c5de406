/// The JavaScript half of the bridge, evaluated once per context before any script.
///
/// It builds the SPEC §3 globals (`hybrid`, `WebViewJavascriptBridge`, `console`, timers,
/// `require`) on a handful of native primitives passed in as `native`, so the Swift half stays
/// small and the whole bridge reads in one sitting. Errors are created where scripts call, so
/// their stacks and locations point at the calling line, not at this file.
///
/// `patchSource` (hot fixes: `patch.*` and `defineClass`) runs first, on the same `native`
/// object, and leaves `native.patches` for the calls below to consult.
enum Prelude {
    static let sourceURL = "hybrid:prelude"
    /// Starts with `sourceURL`, so `ScriptLocation` drops its frames from stacks too.
    static let patchSourceURL = "hybrid:prelude/patches"

    static let source = #"""
(function (native) {
  'use strict';
  const global = globalThis;

  // A service error, made while the calling script is on the stack: its stack leads back to
  // the calling line, which Swift finds (native.locate) and names in the message.
  function serviceError(site, code, message) {
    const where = native.locate(String(site.stack || ''));
    site.message = where ? `${message} (called at ${where})` : message;
    site.code = code;
    return site;
  }

  // hybrid.*: native services. A sync answer comes back as the return value (or FAILED, with
  // the error in native.code and native.message) and is settled here, so no script runs
  // nested inside a native call; an async answer settles the promise from the loop later.
  const FAILED = Object.freeze({});
  const PENDING = Object.freeze({});
  native.setSentinels(FAILED, PENDING);
  // Field names each service accepts, checked here because asking the engine for an object's
  // names from Swift costs more than the rest of a call. Swift still checks when this says
  // -1, which is also how it produces the exact error.
  const accepted = new Map();
  function checkedAt(name, params) {
    if (native.stale) {
      accepted.clear();
      native.stale = false;
    }
    if (params === null || typeof params !== 'object' || Array.isArray(params)) return -1;
    let entry = accepted.get(name);
    if (entry === undefined) {
      entry = native.fields(name);
      accepted.set(name, entry);
    }
    if (entry.fields === null) return -1;
    for (const key in params) if (!entry.fields.includes(key)) return -1;
    return entry.generation;
  }
  function callService(service, params, options) {
    const timeout = options && options.timeout !== undefined ? Number(options.timeout) : -1;
    return new Promise((resolve, reject) => {
      // The caller is still on the stack here, so errors made now point at it.
      let site = null;
      const answer = native.call(service, params, timeout, resolve,
        (code, message) => reject(serviceError(site, code, message)), checkedAt(service, params));
      if (answer === PENDING) site = new Error();
      else if (answer === FAILED) reject(serviceError(new Error(), native.code, native.message));
      else resolve(answer);
    });
  }
  function callServiceSync(service, params) {
    const value = native.callSync(service, params, checkedAt(service, params));
    if (value === FAILED) throw serviceError(new Error(), native.code, native.message);
    return value;
  }
  // Hot fixes (patch.*, built before this part): a call with hooks on `service:NAME` runs
  // through them; `original(params)` is the plain call.
  const patches = native.patches;
  const hybrid = {
    call(name, params, options) {
      const service = String(name);
      if (!patches.hooked('service:', service)) return callService(service, params, options);
      return patches.invokeAsync('service:' + service, (value) => callService(service, value, options), [params]);
    },
    callSync(name, params) {
      const service = String(name);
      if (!patches.hooked('service:', service)) return callServiceSync(service, params);
      return patches.invoke('service:' + service, (value) => callServiceSync(service, value), [params]);
    },
    services() { return native.services(); },
    ready() { native.ready(); },
  };
  Object.defineProperty(global, 'hybrid', { value: Object.freeze(hybrid), enumerable: false });

  // WebViewJavascriptBridge, as scripts written for it expect.
  const handlers = Object.create(null);
  const bridge = {
    callHandler(name, data, responseCallback) {
      const answer = hybrid.call(name, data === undefined ? null : data);
      answer.then(
        (value) => { if (typeof responseCallback === 'function') responseCallback(value); },
        (error) => {
          const reply = { error: { code: error.code || 'E_FAILED', message: error.message } };
          if (typeof responseCallback === 'function') responseCallback(reply);
        });
    },
    registerHandler(name, handler) { handlers[String(name)] = handler; },
  };
  Object.defineProperty(global, 'WebViewJavascriptBridge', { value: bridge, enumerable: false });
  // The usual set-up snippet checks `window.WebViewJavascriptBridge` first.
  if (global.window === undefined) Object.defineProperty(global, 'window', { value: global, enumerable: false });
  native.setDispatcher((name, data, id) => {
    const handler = handlers[name];
    if (typeof handler !== 'function') {
      native.respond(id, { error: { code: 'E_NO_SERVICE', message: `no handler named "${name}" is registered` } });
      return;
    }
    let answered = false;
    const respond = (response) => {
      if (answered) return;
      answered = true;
      native.respond(id, response === undefined ? null : response);
    };
    try {
      if (patches.hooked('handler:', name)) patches.invoke('handler:' + name, handler, [data, respond]);
      else handler(data, respond);
    } catch (error) {
      if (!answered) native.respond(id, { error: { code: 'E_FAILED', message: String(error) } });
      throw error;
    }
  });

  // console.*: values formatted the way developers expect from Node or a browser.
  function format(value, depth) {
    if (typeof value === 'string') return depth === 0 ? value : JSON.stringify(value);
    if (value === undefined) return 'undefined';
    if (typeof value === 'function') return `[Function: ${value.name || 'anonymous'}]`;
    if (typeof value === 'symbol' || typeof value === 'bigint') return String(value);
    if (value instanceof Error) return value.stack ? `${value}\n${value.stack}` : String(value);
    if (value === null || typeof value !== 'object') return String(value);
    if (depth > 4) return Array.isArray(value) ? '[Array]' : '[Object]';
    if (Array.isArray(value)) return `[ ${value.map((item) => format(item, depth + 1)).join(', ')} ]`;
    const entries = Object.keys(value).map((key) => `${key}: ${format(value[key], depth + 1)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  function printer(level) {
    return (...values) => native.log(level, values.map((value) => format(value, 0)).join(' '));
  }
  const console = {
    log: printer('log'), info: printer('info'), debug: printer('debug'),
    warn: printer('warn'), error: printer('error'), trace: printer('debug'),
  };
  Object.defineProperty(global, 'console', { value: console, enumerable: false, writable: true });

  // Timers and microtasks.
  function timer(repeat) {
    return (callback, delay, ...args) => {
      if (typeof callback !== 'function') throw new TypeError('the callback must be a function');
      return native.timer(() => callback(...args), Math.max(0, Number(delay) || 0), repeat);
    };
  }
  global.setTimeout = timer(false);
  global.setInterval = timer(true);
  global.clearTimeout = global.clearInterval = (id) => { if (id !== undefined) native.clearTimer(Number(id)); };
  global.queueMicrotask = (callback) => {
    if (typeof callback !== 'function') throw new TypeError('the callback must be a function');
    Promise.resolve().then(() => {
      try { callback(); } catch (error) { native.reportError(error); }
    });
  };

  // require(): CommonJS modules resolved inside the script's folder only.
  const modules = Object.create(null);
  function dirname(path) {
    const slash = path.lastIndexOf('/');
    return slash < 0 ? '.' : path.slice(0, slash) || '/';
  }
  function load(path, source) {
    if (modules[path]) return modules[path].exports;
    const module = { id: path, filename: path, exports: {}, loaded: false };
    modules[path] = module;
    try {
      const body = native.compile(source, path);
      body.call(module.exports, module.exports, requireFrom(dirname(path)), module, path, dirname(path));
    } catch (error) {
      // A module that failed is not half-loaded for the next require.
      delete modules[path];
      throw error;
    }
    module.loaded = true;
    return module.exports;
  }
  function requireFrom(folder) {
    return function require(specifier) {
      const found = native.resolve(String(specifier), folder);
      return modules[found.path] ? modules[found.path].exports : load(found.path, found.source);
    };
  }
  native.setMain((path, source) => load(path, source));
})
"""#

    /// Hot fixes (SPEC §3): the patch table and `patch.replace/before/after`, `defineClass`.
    ///
    /// Hooks are kept per target (`service:NAME`, `handler:NAME`, `method:Type.name`) in
    /// registration order. A call runs the before hooks in order, then the replace hooks composed
    /// so each later one gets the earlier composition as `original` (like swizzling: the last
    /// registered runs outermost), then the after hooks in order, each seeing the result so far.
    /// A hook that throws costs only itself: a before hook is skipped for that call, an after hook
    /// leaves the result as it was, a replace hook's call runs its `original` instead; what an
    /// original throws passes through untouched. After `native.patchFailureLimit` failures in a
    /// row the hook is disabled. Swift is told which targets have a live hook (`native.hooked`),
    /// so calls nobody patched never come here, and reaches the rest through `setPatchRunner`.
    static let patchSource = #"""
(function (native) {
  'use strict';
  const global = globalThis;
  const LIMIT = native.patchFailureLimit;
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
    native.checkTarget(match[1], match[2], String(new Error().stack || ''));
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
    native.hooked(target, hooks !== undefined && hooks.some((hook) => !hook.disabled));
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
    native.patchNotice(`patch on ${hook.target} disabled after ${hook.failures} failures; the original runs again`);
  }
  function failed(hook, error, consequence, revoking) {
    native.patchFailed(error, `in a patch.${hook.kind} hook on ${hook.target}; ${consequence}`);
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
      succeeded(hook);
      if (trace !== null) trace.by = hook.id;
      if (!async || !isThenable(result)) return result;
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
  Object.defineProperty(global, 'self', { value: undefined, writable: true, configurable: true, enumerable: false });
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
        bound['ORIG' + other] = other === name ? original : (...values) => native.callMethod(`${type}.${other}`, values);
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

  const patch = {
    replace(target, fn) { return add('replace', target, fn); },
    before(target, fn) { return add('before', target, fn); },
    after(target, fn) { return add('after', target, fn); },
  };
  Object.defineProperty(global, 'patch', { value: Object.freeze(patch), enumerable: false });
  Object.defineProperty(global, 'defineClass', { value: defineClass, enumerable: false });
  // For the prelude's own calls (hybrid.call, callSync, registered handlers).
  native.patches = Object.freeze({
    hooked(prefix, name) { return table.size !== 0 && table.has(prefix + name); },
    invoke(target, original, args) { return invoke(target, original, args, null, false); },
    invokeAsync(target, original, args) { return invoke(target, original, args, null, true); },
  });
  // For calls that start in Swift (ScriptRuntime+Patches.swift).
  native.setPatchRunner({
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
        if (callerFaults.has(error)) native.patchFailed(error, `in a patch hook on ${target}; the original ran with the call's own arguments`);
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
})
"""#
}
