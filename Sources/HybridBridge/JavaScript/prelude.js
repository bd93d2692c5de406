// The SPEC §3 globals every script sees: hybrid, WebViewJavascriptBridge, console, timers and
// require(), built on the natives declared in Sources/HybridBridge/Natives.swift (the only
// names `native` has). Evaluated once per context, after patch-globals.js, whose calls through
// the patch table it receives as `patches`; returns the functions Swift calls into (declared in Natives.swift too).
//
// Errors are created where scripts call, so their stacks and locations point at the calling
// line, not at this file.
(function (native, patches) {
  'use strict';
  const global = globalThis;

  // A service error, made while the calling script is on the stack: its stack leads back to
  // the calling line, which Swift finds (native.locate) and names in the message.
  function serviceError(site, code, message, details) {
    const where = native.locate({ stack: String(site.stack || '') });
    site.message = where ? `${message} (called at ${where})` : message;
    site.code = code;
    // More the service said (an E_HTTP's status and data), never over code and message.
    if (details !== null && typeof details === 'object') {
      for (const key of Object.keys(details)) if (key !== 'code' && key !== 'message') site[key] = details[key];
    }
    return site;
  }

  // hybrid.*: native services. A sync answer comes back as the return value (a failure is
  // thrown as { code, message, details }) and is settled here, so no script runs nested inside a
  // native call; so is an async service's answer given without waiting, and one given later
  // settles the promise from the loop.
  //
  // Field names each service accepts, checked here because asking the engine for an object's
  // names from Swift costs more than the rest of a call. After the arguments of native.call
  // (callSync ignores timeout to handle) come: the registry generation at which every field of
  // params was found known, then params' values of those fields in the order Swift listed them,
  // so that Swift reads none itself (each read would be an engine call). Just -1 when Swift
  // must look itself, which is also how it produces the exact error (a getter that throws
  // included). A generation >= 0 also tells Swift that params is a plain object: no array,
  // date or function. Absent params (null or undefined) count as {} for a service that lists
  // its fields, as they do in Swift: every field undefined.
  const accepted = new Map();
  // The service's entry ({generation, fields}) when every field of params is one it lists.
  function checkedEntry(name, params) {
    const absent = params === null || params === undefined;
    if (!absent && (typeof params !== 'object' || Array.isArray(params) || params instanceof Date)) return null;
    let entry = accepted.get(name);
    if (entry === undefined) {
      entry = native.fields({ service: name });
      accepted.set(name, entry);
    }
    const fields = entry.fields;
    if (fields === null) return null;
    if (!absent) {
      // Keys mostly come in the order the service lists them: comparing each with the field
      // at its place first spares the search (a third of this side's cost).
      let index = 0;
      for (const key in params) {
        if (key !== fields[index] && !fields.includes(key)) return null;
        index++;
      }
    }
    return entry;
  }
  // Calls `fn` (native.call or native.callSync) with the field arguments above, for `entry`,
  // what checkedEntry answered (asked by the caller outside its try, so that a Proxy trap
  // throwing there reaches the script as itself). Up to four values are written out (Swift
  // takes as many as it listed fields): an array to spread costs a call as much as the rest
  // of this side.
  function invokeNative(fn, entry, service, params, timeout, resolve, reject, handle) {
    if (entry === null) return fn(service, params, timeout, resolve, reject, handle, -1);
    const fields = entry.fields;
    const count = fields.length;
    const absent = params === null || params === undefined;
    let a, b, c, d;
    let more = null;
    // Only the reading is tried here: what the native call throws is the caller's to handle
    // (caught here, it would run the service again).
    try {
      if (count > 4) more = fields.map((field) => (absent ? undefined : params[field]));
      else if (!absent) {
        if (count > 0) a = params[fields[0]];
        if (count > 1) b = params[fields[1]];
        if (count > 2) c = params[fields[2]];
        if (count > 3) d = params[fields[3]];
      }
    } catch {
      return fn(service, params, timeout, resolve, reject, handle, -1);
    }
    if (more !== null) return fn(service, params, timeout, resolve, reject, handle, entry.generation, ...more);
    return fn(service, params, timeout, resolve, reject, handle, entry.generation, a, b, c, d);
  }
  // options.signal (an AbortSignal) drops the call when aborted: the promise rejects with the
  // signal's reason and Swift cancels the work (closing its connection).
  function callService(service, params, options) {
    const timeout = options && options.timeout !== undefined ? Number(options.timeout) : -1;
    const signal = options && options.signal !== undefined && options.signal !== null ? options.signal : null;
    return new Promise((resolve, reject) => {
      if (signal !== null && signal.aborted) {
        reject(signal.reason);
        return;
      }
      // The caller is still on the stack here, so errors made now point at it.
      let site = null;
      let answer;
      let onAbort = null;
      const failed = (code, message, details) => reject(serviceError(site, code, message, details));
      // Without a signal there is no listener to remove: no wrappers to make (a call's cost is
      // mostly what it allocates).
      const settled = (fn) => signal === null ? fn : (...args) => {
        if (onAbort !== null) signal.removeEventListener('abort', onAbort);
        fn(...args);
      };
      const handle = signal === null ? undefined : {};
      const entry = checkedEntry(service, params);
      try {
        answer = invokeNative(native.call, entry, service, params, timeout, settled(resolve), settled(failed), handle);
      } catch (failure) {
        reject(serviceError(new Error(), failure.code, failure.message, failure.details));
        return;
      }
      if (answer !== undefined) {
        resolve(answer);
        return;
      }
      site = new Error();
      if (signal !== null) {
        onAbort = () => {
          native.cancelCall({ id: handle.id });
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }
  function callServiceSync(service, params) {
    const entry = checkedEntry(service, params);
    try {
      return invokeNative(native.callSync, entry, service, params, undefined, undefined, undefined, undefined);
    } catch (failure) {
      throw serviceError(new Error(), failure.code, failure.message, failure.details);
    }
  }
  // Hot fixes: a call with hooks on `service:NAME` runs through them; `original(params)` is
  // the plain call.
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
          // With nobody to answer, the failure is reported: never silence (SPEC §3).
          if (typeof responseCallback === 'function') responseCallback(reply);
          else native.reportError({ error });
        });
    },
    registerHandler(name, handler) { handlers[String(name)] = handler; },
  };
  Object.defineProperty(global, 'WebViewJavascriptBridge', { value: bridge, enumerable: false });
  // The usual set-up snippet checks `window.WebViewJavascriptBridge` first.
  if (global.window === undefined) Object.defineProperty(global, 'window', { value: global, enumerable: false });
  function dispatch(name, data, id) {
    const handler = handlers[name];
    if (typeof handler !== 'function') {
      native.respond({ id, response: { error: { code: 'E_NO_SERVICE', message: `no handler named "${name}" is registered` } } });
      return;
    }
    let answered = false;
    const respond = (response) => {
      if (answered) return;
      answered = true;
      native.respond({ id, response: response === undefined ? null : response });
    };
    try {
      if (patches.hooked('handler:', name)) patches.invoke('handler:' + name, handler, [data, respond]);
      else handler(data, respond);
    } catch (error) {
      if (!answered) native.respond({ id, response: { error: { code: 'E_FAILED', message: String(error) } } });
      throw error;
    }
  }

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
    return (...values) => native.log({ level, text: values.map((value) => format(value, 0)).join(' ') });
  }
  const console = {
    log: printer('log'), info: printer('info'), debug: printer('debug'),
    warn: printer('warn'), error: printer('error'), trace: printer('debug'),
  };
  Object.defineProperty(global, 'console', { value: console, enumerable: false, writable: true });

  // Timers and microtasks.
  function timer(repeating) {
    return (callback, delay, ...args) => {
      if (typeof callback !== 'function') throw new TypeError('the callback must be a function');
      // Where the timer was set locates what its callback throws without a location of its own.
      const site = new Error();
      // The delay as HTML takes it, a 32-bit integer (Web IDL `long`): NaN, Infinity and 2**31
      // wrap as they do in a browser, and what comes out negative runs at once.
      return native.timer({ callback: () => callback(...args), delay: Math.max(0, Number(delay) | 0), repeating, site });
    };
  }
  global.setTimeout = timer(false);
  global.setInterval = timer(true);
  global.clearTimeout = global.clearInterval = (id) => { if (id !== undefined) native.clearTimer({ id: Number(id) }); };
  // Microtasks and promise jobs: the engine restarts its time limit for every job, so a job
  // queueing the next for ever was never stopped. Every 64th job queued here asks, when it
  // runs, whether the entry has used its time limit: then it is dropped, which ends the chain
  // it belonged to (the entry is reported as a runaway, located where that job was queued).
  // `catch` and `finally` go through `then`.
  let jobs = 0;
  function guarded(callback, site) {
    if (typeof callback !== 'function') return callback;
    return function (value) {
      jobs += 1;
      if (jobs % 64 === 0 && native.overBudget({ site })) return undefined;
      return callback(value);
    };
  }
  const then = Promise.prototype.then;
  global.queueMicrotask = (callback) => {
    if (typeof callback !== 'function') throw new TypeError('the callback must be a function');
    const job = guarded(callback, new Error());
    then.call(Promise.resolve(), () => {
      try { job(); } catch (error) { native.reportError({ error }); }
    });
  };
  const guardedThen = {
    then(onFulfilled, onRejected) {
      const site = new Error();
      return then.call(this, guarded(onFulfilled, site), guarded(onRejected, site));
    },
  }.then;
  Object.defineProperty(Promise.prototype, 'then', { value: guardedThen, writable: true, configurable: true, enumerable: false });

  // require(): CommonJS modules resolved inside the script's folder only.
  const modules = Object.create(null);
  function dirname(path) {
    const slash = path.lastIndexOf('/');
    return slash < 0 ? '.' : path.slice(0, slash) || '/';
  }
  // The main script's top level may await: its function then returns a promise, and what
  // it throws later is reported as the script's own uncaught error.
  function load(path, source, main) {
    if (modules[path]) return modules[path].exports;
    const module = { id: path, filename: path, exports: {}, loaded: false };
    modules[path] = module;
    try {
      const body = native.compile({ source, path, main: Boolean(main) });
      const result = body.call(module.exports, module.exports, requireFrom(dirname(path)), module, path, dirname(path));
      if (main && result instanceof Promise) result.then(null, (error) => native.reportError({ error }));
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
      const found = native.resolve({ specifier: String(specifier), folder });
      return modules[found.path] ? modules[found.path].exports : load(found.path, found.source);
    };
  }

  return Object.freeze({
    dispatch,
    loadMain: (path, source) => load(path, source, true),
    forgetFields() { accepted.clear(); },
    serviceError,
  });
})
