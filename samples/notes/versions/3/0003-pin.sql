-- Version 3: notes can be pinned.
ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
UPDATE notes SET pinned = 1 WHERE title = 'Shopping';
