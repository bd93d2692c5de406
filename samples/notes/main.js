// @ts-check
// The notes' behaviour: filling the edit form and saving it. The list and the detail show the
// database through their "sql" data blocks, so nothing here refreshes them: a saved note is
// on screen in the next frame.
const notes = db.table('notes');

// Whoever changes a note's words, the change is stamped, inside the same transaction. The
// handler's own UPDATE comes back here with the words as they were, which ends it.
db.handler('notes', 'update', (change, tx) => {
  const { row, previous } = change;
  if (row.title === previous.title && row.body === previous.body) return;
  tx.exec("UPDATE notes SET updated = datetime('now') WHERE id = ?", [change.row.id]);
});

ui.handler('edit.load', () => {
  const id = state.get('params.id');
  const note = id ? notes.get(Number(id)) : null;
  state.set('form', note ? { title: note.title, body: note.body } : { title: '', body: '' });
  if (note) state.set('heading', 'Edit the note');
});

ui.handler('edit.save', () => {
  const form = state.get('form');
  const id = state.get('params.id');
  if (form.title.trim() === '') {
    state.set('problem', 'a note needs a title');
    return;
  }
  const note = { title: form.title.trim(), body: form.body };
  if (id) notes.update(Number(id), note);
  else notes.insert(note);
  ui.back();
});

// Deleting asks first; the dialog keeps the focus until Keep, Delete or Esc.
ui.handler('note.remove', async () => {
  const id = Number(state.get('params.id'));
  const note = notes.get(id);
  if (note === null) return;
  const choice = await ui.dialog({
    title: 'Delete the note?',
    text: `"${note.title}" goes for good.`,
    buttons: [{ id: 'keep', label: 'Keep' }, { id: 'delete', label: 'Delete' }],
  });
  if (choice !== 'delete') return;
  notes.remove(id);
  ui.toast(`Deleted "${note.title}"`);
  ui.back();
});

hybrid.ready();
