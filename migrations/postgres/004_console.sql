-- Operator console: who did what (audit), and the retention policy's runs.
-- pruned_at marks a row whose raw body and event data the retention policy removed; its dedup key
-- and body hash stay, so a late resend of the same notification is still a duplicate.
ALTER TABLE inbox ADD COLUMN pruned_at TEXT;
ALTER TABLE rejections ADD COLUMN pruned_at TEXT;
ALTER TABLE conflicts ADD COLUMN pruned_at TEXT;

CREATE TABLE audit_log (
  id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at      TEXT    NOT NULL,
  actor   TEXT    NOT NULL,
  action  TEXT    NOT NULL,
  subject TEXT,
  detail  TEXT
);

CREATE TABLE retention_runs (
  id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ran_at     TEXT    NOT NULL,
  cutoff     TEXT    NOT NULL,
  events     INTEGER NOT NULL,
  rejections INTEGER NOT NULL,
  conflicts  INTEGER NOT NULL
);

-- The console finds an event by pgCno as often as by order number, and an event's conflicts by its id.
CREATE INDEX inbox_pg_cno ON inbox (pg_cno);
CREATE INDEX conflicts_event_id ON conflicts (event_id);
CREATE INDEX conflicts_received_at ON conflicts (received_at);
CREATE INDEX rejections_received_at ON rejections (received_at);
