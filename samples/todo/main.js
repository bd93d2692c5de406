// @ts-check
// The todo sample: the list lives in the screen's state and is saved with the storage service
// after every change, so it is there again on the next run.
const KEY = 'todos';

function save() {
  return hybrid.call('storage.set', { key: KEY, value: state.get('todos') });
}

ui.handler('add', () => {
  const title = String(state.get('draft') || '').trim();
  if (!title) return;
  state.set('todos', [...state.get('todos'), { title, done: false }]);
  state.set('draft', '');
  save();
});

// Ticking an item writes todos.N.done through the checkbox's binding; this saves it.
ui.handler('save', () => save());

ui.handler('clearDone', () => {
  state.set('todos', state.get('todos').filter((todo) => !todo.done));
  save();
});

ui.handler('load', () =>
  hybrid.call('storage.get', { key: KEY }).then((saved) => {
    if (Array.isArray(saved)) state.set('todos', saved);
    hybrid.ready();
  }));
