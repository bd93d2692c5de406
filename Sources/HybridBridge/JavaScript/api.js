// SPEC §7.2's api global: the APIs a bundle declares, through the host's api.* services (so a
// patch on service:api.call sees every call), with the reformers, interceptors and managers
// that live on the script side. Evaluated when first needed (data-globals.js), which hands
// over the prelude's `serviceError` so a refusal made here points at the calling line too.
// Returns the global for data-globals.js to define, and `loadData`, which Swift calls through
// it (DataEntryPoint in EntryPoints.swift).
//
// `timeout` is in milliseconds, as for hybrid.call; `cache` is "default", "reload" or "only";
// `reformer` names one registered with api.reformer.
(function (native, serviceError) {
  'use strict';

  const reformers = new Map();
  // Interceptors (SPEC §7.2), in the order they were added: aspects around every call of the
  // APIs their pattern names. A hook that throws is reported; after three throws it is disabled.
  const interceptors = [];
  const names = (pattern, name) => pattern === '*' || pattern === name || (pattern.endsWith('.*') && name.startsWith(pattern.slice(0, -1)));
  function runHooks(name, hook, args) {
    let verdict = true;
    for (const entry of interceptors.slice()) {
      if (entry.disabled || !names(entry.pattern, name) || typeof entry.hooks[hook] !== 'function') continue;
      try {
        if (entry.hooks[hook](...args) === false) verdict = false;
      } catch (error) {
        native.reportError({ error });
        entry.throws += 1;
        if (entry.throws >= 3) {
          entry.disabled = true;
          native.log({ level: 'warn', text: `api.intercept(${JSON.stringify(entry.pattern)}): disabled after its hooks threw 3 times` });
        }
      }
    }
    return verdict;
  }
  // Whether the APIs' hosts answer: false after E_OFFLINE or a queued call, true again after
  // any answer from the network.
  let online = true;
  const statusListeners = new Set();
  function observed(answer) {
    const set = (value) => {
      if (online === value) return;
      online = value;
      for (const fn of [...statusListeners]) {
        try { fn(value); } catch (error) { native.reportError({ error }); }
      }
    };
    // A queued call was not answered: its host could not be reached (or still cannot). A kept
    // answer (a hit, or a stale one standing in for a failure) says nothing of the host.
    return answer.then((value) => {
      if (value && value.queued === true) set(false);
      else if (!value || value.fromCache !== true) set(true);
      return value;
    }, (error) => {
      if (error && error.code === 'E_OFFLINE') set(false);
      else if (error && error.code === 'E_HTTP') set(true);
      throw error;
    });
  }
  const never = new Promise(() => {});
  // `site` is an Error made where the script called, so a refusal points at that line.
  function intercepted(name, params, send, site) {
    const info = { api: name };
    if (!runHooks(name, 'shouldCall', [params, info])) {
      return Promise.reject(serviceError(site, 'E_INTERCEPTED', `${name}: an interceptor's shouldCall refused the call; nothing was sent`));
    }
    const answer = send();
    runHooks(name, 'afterCall', [params, info]);
    // `false` from beforeSuccess or beforeFail stops delivery: the promise settles neither way.
    return answer.then(
      (value) => (runHooks(name, 'beforeSuccess', [value, info]) ? (runHooks(name, 'afterSuccess', [value, info]), value) : never),
      (error) => (runHooks(name, 'beforeFail', [error, info]) ? (runHooks(name, 'afterFail', [error, info]), Promise.reject(error)) : never));
  }
  // Paging (SPEC §7.1): `paging` is the api.paging service's answer, {param, items} or null.
  function pageItems(paging, data) {
    if (paging === null) return null;
    let value = data;
    for (const part of paging.items === '' ? [] : paging.items.split('.')) value = value == null ? undefined : value[part];
    return Array.isArray(value) ? value : null;
  }
  // A page shorter than the first is the last; so is an empty one, or one with no items.
  function isLastPage(paging, items, first) {
    return paging === null || items === null || items.length === 0 || items.length < first;
  }
  // `data` with the page's items appended to the items of `earlier` (the pages before).
  function appended(paging, earlier, items) {
    const earlierItems = pageItems(paging, earlier);
    if (earlierItems === null) return earlier;
    const merged = earlierItems.concat(items);
    if (paging.items === '') return merged;
    const copy = JSON.parse(JSON.stringify(earlier));
    const parts = paging.items.split('.');
    let holder = copy;
    for (const part of parts.slice(0, -1)) holder = holder[part];
    holder[parts[parts.length - 1]] = merged;
    return copy;
  }

  // A screen's data block (SPEC §7.4), for the host: request = {api, params, reformer?, next?}
  // where `next` is what the last load handed back ({raw, page, first}) when the next page is
  // wanted. Answers through native.respond({id, response}) with {answer: {data, raw, page,
  // first, lastPage, stale, fromCache, requestId}} or {error: {code, message, status?, data?}}.
  // The call goes through api.call, so interceptors, reformers and the in-flight policy apply.
  function loadData(request, id) {
    const respond = (response) => native.respond({ id, response });
    const failed = (error) => {
      const reported = { code: (error && error.code) || 'E_FAILED', message: String((error && error.message) || error) };
      if (error && error.status !== undefined) reported.status = error.status;
      if (error && error.data !== undefined) reported.data = error.data;
      if (error && error.requestId !== undefined) reported.requestId = error.requestId;
      respond({ error: reported });
    };
    let reform = null;
    if (request.reformer !== undefined && request.reformer !== null) {
      reform = reformers.get(String(request.reformer));
      if (reform === undefined) {
        failed({ code: 'E_BAD_PARAMS', message: `no reformer named ${JSON.stringify(String(request.reformer))}; register it with api.reformer(name, fn)` });
        return;
      }
    }
    const paging = hybrid.callSync('api.paging', { name: String(request.api) });
    const next = paging === null ? null : request.next || null;
    const page = next === null ? 1 : next.page + 1;
    const params = paging === null ? request.params : Object.assign({}, request.params, { [paging.param]: page });
    api.call(request.api, params).then((answer) => {
      const items = pageItems(paging, answer.data);
      const first = next === null ? (items === null ? 0 : items.length) : next.first;
      const raw = next === null || items === null ? answer.data : appended(paging, next.raw, items);
      let data = raw;
      try {
        if (reform !== null) data = reform(raw, { api: String(request.api), params });
      } catch (error) {
        native.reportError({ error });
        failed(error);
        return;
      }
      respond({ answer: { data, raw, page, first, lastPage: isLastPage(paging, items, first),
        stale: answer.stale === true, fromCache: answer.fromCache === true, requestId: answer.requestId || null } });
    }, failed);
  }

  const api = {
    intercept(pattern, hooks) {
      if (hooks === null || typeof hooks !== 'object') throw new TypeError('api.intercept(pattern, hooks): hooks must be an object');
      const entry = { pattern: String(pattern), hooks, throws: 0, disabled: false };
      interceptors.push(entry);
      return Object.freeze({ remove() { const at = interceptors.indexOf(entry); if (at >= 0) interceptors.splice(at, 1); } });
    },
    call(name, params, options) {
      const timeout = options && options.timeout !== undefined ? Number(options.timeout) : undefined;
      const message = { name: String(name), params: params === undefined ? null : params };
      if (timeout !== undefined) message.timeout = timeout / 1000;
      if (options && options.cache !== undefined) message.cache = String(options.cache);
      const site = new Error();
      let reform = null;
      if (options && options.reformer !== undefined) {
        reform = reformers.get(String(options.reformer));
        if (reform === undefined) {
          return Promise.reject(serviceError(site, 'E_BAD_PARAMS',
            `api.call(${JSON.stringify(String(name))}): no reformer named ${JSON.stringify(String(options.reformer))}; register it with api.reformer(name, fn)`));
        }
      }
      const answer = intercepted(message.name, message.params,
        () => observed(hybrid.call('api.call', message, { timeout, signal: options ? options.signal : undefined })), site);
      if (reform === null) return answer;
      // One answer, shaped for the view that asked: the reformer sees the data and the call.
      return answer.then((value) => Object.assign({}, value, { data: reform(value.data, { api: String(name), params: message.params }) }));
    },
    // The first registration of a name is kept: a bundle's patches run before its entry, so a
    // patch's reformer replaces the one the entry registers. Removing it frees the name.
    reformer(name, fn) {
      if (typeof fn !== 'function') throw new TypeError('api.reformer(name, fn): fn must be a function');
      const key = String(name);
      if (reformers.has(key)) {
        native.log({ level: 'info', text: `api.reformer(${JSON.stringify(key)}): kept the reformer registered first (a patch's, usually); remove that one with its handle to replace it` });
        return Object.freeze({ remove() {} });
      }
      reformers.set(key, fn);
      return Object.freeze({ remove() { if (reformers.get(key) === fn) reformers.delete(key); } });
    },
    // The seeds' API manager: one API's paged loading, with what a view asks of it.
    manager(name) {
      const api_ = String(name);
      const paging = hybrid.callSync('api.paging', { name: api_ });
      let base = {}, page = 0, first = 0, last = false, loading = 0, answer = null;
      const itemsOf = (data) => pageItems(paging, data);
      const fetchPage = (number) => {
        const params = paging === null ? base : Object.assign({}, base, { [paging.param]: number });
        loading += 1;
        return api.call(api_, params).then((value) => {
          loading -= 1;
          page = number;
          answer = value;
          const items = itemsOf(value.data);
          if (number === 1) first = items === null ? 0 : items.length;
          last = isLastPage(paging, items, first);
          return value;
        }, (error) => { loading -= 1; throw error; });
      };
      return Object.freeze({
        load(params) { base = params === undefined || params === null ? {} : params; page = 0; last = false; return fetchPage(1); },
        loadNextPage() { return last ? Promise.resolve(answer) : fetchPage(page + 1); },
        reset() { page = 0; first = 0; last = false; answer = null; },
        cancel() { api.cancel(api_); },
        fetch(reformer) {
          if (answer === null) return null;
          if (reformer === undefined) return answer.data;
          const reform = typeof reformer === 'function' ? reformer : reformers.get(String(reformer));
          if (reform === undefined) throw new TypeError(`manager(${JSON.stringify(api_)}).fetch: no reformer named ${JSON.stringify(String(reformer))}`);
          return reform(answer.data, { api: api_, params: base });
        },
        get isLoading() { return loading > 0; },
        get isLastPage() { return last; },
        get page() { return page; },
        get requestId() { return answer === null ? null : answer.requestId; },
      });
    },
    get online() { return online; },
    onStatus(fn) {
      if (typeof fn !== 'function') throw new TypeError('api.onStatus(fn): fn must be a function');
      statusListeners.add(fn);
      return Object.freeze({ remove() { statusListeners.delete(fn); } });
    },
    invalidate(pattern) { hybrid.callSync('api.invalidate', { pattern: String(pattern) }); },
    cancel(pattern) { hybrid.callSync('api.cancel', { pattern: String(pattern) }); },
    // The outbox (SPEC §7.1 offline: "queue"): sent in order, oldest first; flush answers
    // {sent, dropped, left}, outbox() the calls still waiting.
    flush() { return hybrid.call('api.flush', null); },
    outbox() { return hybrid.callSync('api.outbox', null); },
  };
  return Object.freeze({ global: Object.freeze(api), loadData });
})
