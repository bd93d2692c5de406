// Version 3's script, with the bug it shipped with: it reads the pinned notes as soon as it
// starts, and misspells the table's method. The start fails after the migration ran, so 3.0.0
// is marked bad, the database goes back to what 2.0.0 left, and 2.0.0 runs on.
const notes = db.table('notes');
const pinned = notes.findAll({ where: 'pinned = 1' });
ui.handler('edit.load', () => {});
hybrid.ready(pinned);
