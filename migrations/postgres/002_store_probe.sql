-- Same as migrations/sqlite/002_store_probe.sql: the row /readyz rewrites to prove a commit works now.
CREATE TABLE store_probe (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  probed_at TEXT    NOT NULL
);
