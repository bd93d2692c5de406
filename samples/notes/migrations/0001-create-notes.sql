-- The notes, and three to start with.
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  updated TEXT NOT NULL DEFAULT (datetime('now'))
);
INSERT INTO notes (title, body) VALUES
  ('Sencha', 'Steam at 70 °C for one minute; a second steep takes 30 seconds.'),
  ('Assam', 'Strong and malty: boiling water, four minutes, milk if you like.'),
  ('Shopping', 'Kettle descaler, oat milk, the small tin of matcha.');
