-- Same as migrations/sqlite/018_store_identity.sql: one random id per database, written once, that
-- /readyz reports and the CLI compares with the store it opened.
CREATE TABLE store_identity (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  store_id   TEXT    NOT NULL,
  created_at TEXT    NOT NULL
);
INSERT INTO store_identity (id, store_id, created_at)
VALUES (1, replace(gen_random_uuid()::text, '-', ''), to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
