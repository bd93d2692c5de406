// The notes' behaviour: filling the edit form and saving it. The list and the detail show the
// database through their "sql" data blocks, so nothing here refreshes them: a saved note is
// on screen in the next frame.
const notes = db.table('notes');

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
  const note = { title: form.title.trim(), body: form.body, updated: new Date().toISOString().slice(0, 19).replace('T', ' ') };
  if (id) notes.update(Number(id), note);
  else notes.insert(note);
  ui.back();
});

ui.handler('note.remove', () => {
  notes.remove(Number(state.get('params.id')));
  ui.back();
});

hybrid.ready();
