-- Inbox: one row per dedup key. The unique key is what makes a redelivery a no-op.
CREATE TABLE inbox (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id       TEXT    NOT NULL UNIQUE,
  dedup_key      TEXT    NOT NULL UNIQUE,
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
  last_redelivered_at TEXT
);
CREATE INDEX inbox_shop_order_no ON inbox (shop_order_no);
CREATE INDEX inbox_received_at ON inbox (received_at);

-- Outbox: written in the same transaction as the inbox row; the relay drains it in seq order.
CREATE TABLE outbox (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  inbox_seq       INTEGER NOT NULL UNIQUE REFERENCES inbox (seq),
  event_id        TEXT    NOT NULL UNIQUE,
  status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  created_at      TEXT    NOT NULL,
  created_at_ms   INTEGER NOT NULL,
  delivered_at    TEXT
);
-- Partial index: the relay's scan touches only undelivered rows however large the table grows.
CREATE INDEX outbox_pending ON outbox (seq) WHERE status = 'pending';
CREATE INDEX outbox_dead ON outbox (seq) WHERE status = 'dead';

-- Bodies we refused (5001/413/415), kept raw for an operator to inspect and reprocess.
CREATE TABLE rejections (
  id                   INTEGER PRIMARY KEY AUTOINCREMENT,
  received_at          TEXT    NOT NULL,
  source_ip            TEXT    NOT NULL,
  content_type         TEXT,
  raw_body             BLOB,
  http_status          INTEGER NOT NULL,
  reason               TEXT    NOT NULL,
  reprocessed_at       TEXT,
  reprocessed_event_id TEXT
);

-- Redeliveries whose body differs from the stored one: acked, never forwarded, kept for review.
CREATE TABLE conflicts (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  inbox_seq    INTEGER NOT NULL REFERENCES inbox (seq),
  event_id     TEXT    NOT NULL,
  dedup_key    TEXT    NOT NULL,
  received_at  TEXT    NOT NULL,
  source_ip    TEXT    NOT NULL,
  content_type TEXT    NOT NULL,
  raw_body     BLOB    NOT NULL,
  body_hash    TEXT    NOT NULL,
  event_json   TEXT    NOT NULL
);
