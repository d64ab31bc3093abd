-- Which database this is, whatever URL or path names it: the receiver reports it on /readyz and the
-- CLI compares it with the one it opened, so a CLI reading another store (a stale .env, another
-- SQLite file) says so instead of answering from the wrong data. Random, written once, one row;
-- a restored copy of the database keeps it, and holds the same data.
CREATE TABLE store_identity (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  store_id   TEXT    NOT NULL,
  created_at TEXT    NOT NULL
);
INSERT INTO store_identity (id, store_id, created_at)
VALUES (1, lower(hex(randomblob(16))), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
