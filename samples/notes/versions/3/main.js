// @ts-check
// Version 3's script, with the bug it shipped with: it reads the pinned notes as soon as it
// starts, and misspells the table's method. The start fails after the migration ran, so 3.0.0
// is marked bad, the database goes back to what 2.0.0 left, and 2.0.0 runs on.
const notes = db.table('notes');
// @ts-expect-error: the shipped bug (tables have find, not findAll), which tsc would have caught.
const pinned = notes.findAll({ where: 'pinned = 1' });
ui.handler('edit.load', () => {});
// @ts-expect-error: ready takes nothing; never reached, as the line above throws.
hybrid.ready(pinned);
