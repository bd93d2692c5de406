// Every global of types/hybridterm.d.ts used once, as scripts use them, checked under `strict`
// by Tests/EndToEndTests/TypeScriptTests.swift (`tsc -p types/tests/tsconfig.json`): a
// declaration that is missing or of the wrong shape fails here. Each `@ts-expect-error` line is
// a misuse the declarations must refuse (tsc fails when such a line has no error). Never run.

// A type that must be exactly `Expected`, so a wrong answer type fails too.
type Is<Actual, Expected> = [Actual] extends [Expected] ? ([Expected] extends [Actual] ? true : false) : false;
function exactly<Expected>() {
  return <Actual>(value: Actual, ..._check: Is<Actual, Expected> extends true ? [] : [never]) => value;
}

// ── hybrid ──
const info = await hybrid.call<{ platform: string }>('device.info', {}, { timeout: 500, signal: new AbortController().signal });
exactly<string>()(info.platform);
exactly<unknown>()(hybrid.callSync<unknown>('storage.keys'));
for (const service of hybrid.services()) {
  exactly<string>()(service.name);
  exactly<boolean>()(service.sync);
  exactly<boolean>()(service.params[0].required);
  exactly<string | undefined>()(service.permission);
}
hybrid.ready();
try {
  await hybrid.call('storage.get', { key: 'k' });
} catch (caught) {
  const error = caught as HybridError;
  exactly<HybridErrorCode>()(error.code);
  exactly<number | undefined>()(error.status);
  const code: HybridErrorCode = 'E_SQL';
  // @ts-expect-error: not a code HybridTerm uses
  const wrong: HybridErrorCode = 'E_NOPE';
  console.log(error.message, error.stack, code, wrong, error.data, error.requestId);
}
// @ts-expect-error: a misspelt option
hybrid.call('device.info', {}, { timout: 500 });

// ── WebViewJavascriptBridge ──
WebViewJavascriptBridge.callHandler('device.info', {}, (response) => console.log(response));
WebViewJavascriptBridge.callHandler('ping');
WebViewJavascriptBridge.registerHandler('greet', (data, respond) => respond({ hello: data }));
window.WebViewJavascriptBridge.registerHandler('quiet', (_data, respond) => respond());
const failure: HybridTerm.BridgeFailure = { error: { code: 'E_NO_SERVICE', message: 'no handler' } };

// ── ui ──
ui.show('home');
ui.show('app://detail?id=1');
ui.push({ format: 1, id: 'made', body: { type: 'text', text: 'made by a script', style: { bold: true } } });
ui.back();
ui.update('buy', { label: 'Buy now' });
ui.handler('buy', (event) => {
  exactly<string | undefined>()(event.id);
  exactly<number | undefined>()(event.index);
  console.log(event.value, event.item, event.row, event.key, event.type, event.anyArg);
});
ui.component('badge', (props) => ({ type: 'text', text: String(props.text), class: 'badge' }));
exactly<string | null>()(ui.screen);
const choice = await ui.dialog({ title: 'Delete?', text: 'This cannot be undone.', buttons: [{ id: 'yes', label: 'Delete' }] });
exactly<string | null>()(choice);
ui.toast('Saved');
ui.toast('Offline', { level: 'warn', ms: 2000 });
// @ts-expect-error: not a level
ui.toast('x', { level: 'loud' });
// @ts-expect-error: a screen is read, not set
ui.screen = 'home';

// ── state, store ──
exactly<number>()(state.get<number>('count'));
state.get();
state.set('count', 2);
state.watch<number>('count', (value, changedPath) => exactly<string>()(`${value} ${changedPath}`)).remove();
exactly<string[]>()(store.get<string[]>('tags'));
store.set('user', { name: 'Ada' });
store.set('cleared', null);
const watch: HybridTerm.Handle = store.watch('user.name', (value, previous) => console.log(value, previous));
watch.remove();
// @ts-expect-error: the value is missing
store.set('user');
const items = state.get<HybridTerm.DataBlock<{ items: string[] }>>('items');
exactly<'loading' | 'ok' | 'error'>()(items.status);
exactly<{ items: string[] } | null>()(items.data);
exactly<HybridTerm.DataBlockError | null>()(items.error);
console.log(items.stale, items.fromCache, items.page, items.lastPage, items.requestId);

// ── patch, defineClass ──
const replaced = patch.replace('service:cart.add', (original, params) => original({ ...params, qty: 1 }));
exactly<'replace' | 'before' | 'after'>()(replaced.kind);
exactly<boolean>()(replaced.disabled);
exactly<string>()(replaced.target);
replaced.remove();
patch.before('handler:buy', (event) => console.log(event));
patch.after('method:Cart.total', (result: number) => Math.round(result));
// @ts-expect-error: a target names its kind
patch.before('cart.add', () => {});
defineClass('Cart', {
  total: function (cart: { items: { price: number }[] }) {
    return self.ORIGtotal(cart) + this.ORIGcount(cart);
  },
}).remove();

// ── api ──
const answer = await api.call<{ items: string[] }>('items.list', { category: 'green' }, { timeout: 2000, cache: 'reload', reformer: 'rows', signal: AbortSignal.timeout(5000) });
exactly<string[]>()(answer.data.items);
exactly<number>()(answer.status);
exactly<string>()(answer.headers['content-type']);
exactly<string>()(answer.requestId);
console.log(answer.fromCache, answer.stale, answer.queued);
const queued: HybridTerm.QueuedAnswer = { queued: true, requestId: answer.requestId };
// @ts-expect-error: not a cache mode
api.call('items.list', {}, { cache: 'never' });
api.reformer('rows', (data, call) => data.items.map((item: string) => `${item} (${call.api})`)).remove();
const manager = api.manager<{ items: string[] }>('items.list');
await manager.load({ category: 'green' });
while (!manager.isLastPage) await manager.loadNextPage();
exactly<{ items: string[] } | null>()(manager.fetch());
exactly<number | null>()(manager.fetch((data) => data.items.length));
manager.fetch('rows');
exactly<number>()(manager.page);
exactly<string | null>()(manager.requestId);
console.log(manager.isLoading);
manager.reset();
manager.cancel();
api.intercept('shop.*', {
  shouldCall: (params, info) => params.category !== 'hidden' && info.api !== '',
  afterCall: (_params, info) => console.log('sent', info.api),
  beforeSuccess: (result) => result.data !== null,
  afterSuccess: () => {},
  beforeFail: (error) => error.code !== 'E_CANCELLED',
  afterFail: (error) => console.warn(error.message),
}).remove();
api.invalidate('items.list');
api.cancel('*');
const { sent, dropped, left } = await api.flush();
exactly<number>()(sent + dropped + left);
const [waiting] = api.outbox();
exactly<string>()(waiting.api);
exactly<number>()(waiting.queuedAt + waiting.tries);
console.log(waiting.params, waiting.requestId);
exactly<boolean>()(api.online);
api.onStatus((online) => exactly<boolean>()(online)).remove();

// ── db ──
interface Note { id: number; title: string; body: string | null }
const rows = db.query<Note>('SELECT id, title, body FROM notes WHERE title LIKE :q', { q: '%tea%' });
exactly<string>()(rows[0].title);
exactly<HybridTerm.Row[]>()(db.query('SELECT 1 AS one'));
const { changes, lastInsertRowId } = db.exec('INSERT INTO notes (title, body, pinned, data) VALUES (?, ?, ?, ?)', ['Tea', null, true, new Uint8Array([1])]);
exactly<number>()(changes + lastInsertRowId);
exactly<number>()(db.batch('INSERT INTO tags (note, tag) VALUES (?, ?)', [[1, 'tea'], [1, 'green']]).changes);
exactly<number>()(db.transaction((tx) => tx.exec('DELETE FROM notes').changes + tx.query('SELECT 1').length));
// @ts-expect-error: SQL is a string
db.query(42);
const notes = db.table<Note>('notes');
exactly<Note[]>()(notes.find({ where: 'title LIKE ?', params: ['S%'], orderBy: 'id DESC', limit: 20, offset: 0 }));
exactly<Note | null>()(notes.get(1));
notes.insert({ title: 'Sencha' });
notes.upsert({ id: 1, title: 'Matcha' });
notes.update(1, { title: 'Gyokuro' });
notes.remove({ id: 1 });
// @ts-expect-error: tables have find, not findAll
notes.findAll();
db.watch<Note>('SELECT * FROM notes', [], (watched) => exactly<Note[]>()(watched)).remove();
db.handler<Note>('notes', 'update', (change, tx) => {
  exactly<Note>()(change.row);
  exactly<Note>()(change.previous);
  exactly<string>()(change.table);
  tx.exec('UPDATE notes SET updated = 1 WHERE id = ?', [change.row.id]);
}).remove();
db.handler<Note>('notes', 'insert', (change) => exactly<null>()(change.previous));
db.handler<Note>('notes', 'delete', (change) => exactly<null>()(change.row));
// @ts-expect-error: not an operation
db.handler('notes', 'upsert', () => {});

// ── console, timers, modules ──
console.log('a', 1, { b: 2 });
console.info('i');
console.debug('d');
console.warn('w');
console.error(new Error('e'));
console.trace('t');
const timeout = setTimeout((label: string) => console.log(label), 100, 'late');
clearTimeout(timeout);
clearInterval(setInterval(() => {}, 1000));
queueMicrotask(() => console.log('soon'));
const rules = require('./rules.js');
module.exports = { rules };
exports.more = 1;
console.log(module.id, module.filename, module.loaded, __filename, __dirname);

// ── web globals ──
const controller = new AbortController();
controller.signal.addEventListener('abort', (event) => console.log(event.type), { once: true });
controller.signal.onabort = () => {};
controller.abort(new DOMException('stop', 'AbortError'));
exactly<boolean>()(controller.signal.aborted);
console.log(controller.signal.reason, AbortSignal.abort().aborted, AbortSignal.any([controller.signal]).aborted);
controller.signal.throwIfAborted();
const request = new Request('https://example.com/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: controller.signal });
const response = await fetch(request);
const second = await fetch(new URL('https://example.com/'), { headers: [['accept', 'text/plain']] });
exactly<boolean>()(response.ok);
exactly<number>()(response.status);
exactly<string>()(response.statusText);
exactly<string | null>()(response.headers.get('content-type'));
exactly<Promise<any>>()(response.json());
exactly<Promise<string>>()(second.text());
exactly<Promise<ArrayBuffer>>()(second.clone().arrayBuffer());
console.log(response.url, response.type, response.redirected, response.bodyUsed, request.method, request.url);
console.log(Response.json({ ok: true }).status, new Response('body', { status: 201 }).ok);
const headers = new Headers({ Accept: 'text/html' });
headers.append('x-a', '1');
headers.set('x-b', '2');
headers.delete('x-a');
for (const [name, value] of headers) console.log(name, value, headers.has(name));
// @ts-expect-error: fetch needs a URL
fetch();
const url = new URL('/items?q=tea', 'https://example.com');
exactly<string>()(url.pathname + url.search + url.hash + url.host + url.hostname + url.port + url.protocol + url.origin + url.href);
url.searchParams.append('page', '2');
exactly<string | null>()(url.searchParams.get('q'));
exactly<boolean>()(URL.canParse('nope'));
exactly<URL | null>()(URL.parse('https://example.com'));
const params = new URLSearchParams({ a: '1' });
params.sort();
exactly<string>()(params.toString() + [...params.keys()].join());
exactly<Uint8Array>()(new TextEncoder().encode('ä'));
exactly<string>()(new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xc3, 0xa4]), { stream: false }));
exactly<string>()(atob(btoa('hello')));
exactly<{ a: number[] }>()(structuredClone({ a: [1] }));
exactly<number>()(performance.now());

export { failure, queued };
