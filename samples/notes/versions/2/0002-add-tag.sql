-- Version 2: notes get a tag; the tea notes are tagged so.
ALTER TABLE notes ADD COLUMN tag TEXT NOT NULL DEFAULT '';
UPDATE notes SET tag = 'tea' WHERE title IN ('Sencha', 'Assam', 'Matcha');
