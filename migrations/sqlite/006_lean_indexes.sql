-- migrate: foreign_keys=off
-- announce: rebuilding inbox and outbox without their redundant unique indexes: one-time, about 30 s per million stored notifications, needing free disk of about 1.6 times the database file
--
-- Fewer index pages per acked notification (issue 9). Every index on a random key costs about one
-- WAL page per notification, and each page is written and fsync'ed with the ack's commit:
-- - inbox.dedup_key UNIQUE goes: the event id is sha256(dedup key) (eventIdFor), so the unique
--   event id already decides what is a duplicate; record-notification compares the dedup key of
--   the row it finds, so a hash collision is still refused rather than taken for a duplicate.
--   A command's event has dedup key 'command:' || event id, unique with its id just the same.
-- - outbox.event_id UNIQUE goes: the outbox is reached from the inbox by inbox_seq (unique and
--   append-ordered); the column stays because the relay and the delivery history read it.
-- - delivery_attempts is found by outbox_seq (append-ordered) instead of event_id.
-- - seq loses AUTOINCREMENT, which rewrote sqlite_sequence in every commit. A plain INTEGER
--   PRIMARY KEY takes max(seq) + 1, so a seq could only be reused after the last row were
--   deleted: nothing deletes inbox or outbox rows (retention empties raw_body and event_json
--   and keeps the row, and the dedup key with it), so seqs stay unique and in arrival order.
--
-- SQLite cannot drop an inline UNIQUE, so inbox and outbox are rebuilt as its documented
-- procedure says (https://sqlite.org/lang_altertable.html#otheralter): new table, copy, drop,
-- rename, indexes. Rows keep their seq, so every reference (outbox.inbox_seq,
-- conflicts.inbox_seq, delivery_attempts.outbox_seq) still holds; the runner checks them all
-- before COMMIT (foreign_key_check). The unique event id index is built after the copy, which
-- sorts once instead of inserting random keys one by one.
-- One-time, and in proportion to the stored notifications (measured on 2 shared vCPUs, rows as
-- bench/seed-inbox.ts makes them): 1M notifications (a 2.0 GB file) take 27-38 s in one
-- transaction, and the start-up connection's closing checkpoint 8 s more; 200k take 5 s in all.
-- The WAL grows to about the copied tables' size (1.7 GB for 1M) and the file by the inbox's
-- (2.0 -> 3.5 GB): about 1.6 times the file must be free. The old copy's pages stay in the file
-- as free pages, which new notifications fill before the file grows again.

CREATE TABLE inbox_new (
  seq            INTEGER PRIMARY KEY,
  event_id       TEXT    NOT NULL,
  -- Not unique: the unique event_id is derived from it. Kept for the collision check and the operator.
  dedup_key      TEXT    NOT NULL,
  noti_type      TEXT    NOT NULL,
  event_type     TEXT    NOT NULL,
  mall_id        TEXT    NOT NULL,
  pg_cno         TEXT    NOT NULL,
  shop_order_no  TEXT,
  body_hash      TEXT    NOT NULL,
  raw_body       BLOB    NOT NULL,
  content_type   TEXT    NOT NULL,
  source_ip      TEXT    NOT NULL,
  received_at    TEXT    NOT NULL,
  event_json     TEXT    NOT NULL,
  redeliveries   INTEGER NOT NULL DEFAULT 0,
  last_redelivered_at TEXT,
  pruned_at      TEXT
);
INSERT INTO inbox_new (seq, event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash,
    raw_body, content_type, source_ip, received_at, event_json, redeliveries, last_redelivered_at, pruned_at)
  SELECT seq, event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash,
    raw_body, content_type, source_ip, received_at, event_json, redeliveries, last_redelivered_at, pruned_at
  FROM inbox ORDER BY seq;
DROP TABLE inbox;
ALTER TABLE inbox_new RENAME TO inbox;
-- The one dedup key: a redelivery is the same event id (ON CONFLICT DO NOTHING in record-notification).
CREATE UNIQUE INDEX inbox_event_id ON inbox (event_id);
CREATE INDEX inbox_shop_order_no ON inbox (shop_order_no);
CREATE INDEX inbox_received_at ON inbox (received_at);
CREATE INDEX inbox_pg_cno ON inbox (pg_cno);

CREATE TABLE outbox_new (
  seq             INTEGER PRIMARY KEY,
  inbox_seq       INTEGER NOT NULL UNIQUE REFERENCES inbox (seq),
  event_id        TEXT    NOT NULL,
  status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  created_at      TEXT    NOT NULL,
  created_at_ms   INTEGER NOT NULL,
  delivered_at    TEXT
);
INSERT INTO outbox_new (seq, inbox_seq, event_id, status, attempts, next_attempt_at, last_error, created_at,
    created_at_ms, delivered_at)
  SELECT seq, inbox_seq, event_id, status, attempts, next_attempt_at, last_error, created_at, created_at_ms, delivered_at
  FROM outbox ORDER BY seq;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (seq) WHERE status = 'pending';
CREATE INDEX outbox_dead ON outbox (seq) WHERE status = 'dead';

DROP INDEX delivery_attempts_event_id;
CREATE INDEX delivery_attempts_outbox_seq ON delivery_attempts (outbox_seq, id);
