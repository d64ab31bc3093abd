-- Same tables and meaning as migrations/sqlite/001_init.sql. Timestamps the operator sees stay
-- ISO-8601 TEXT, exactly as received, so both stores return identical strings and `since`
-- compares the same way; the relay's clocks are epoch-ms BIGINTs.

-- Inbox: one row per dedup key. The unique key is what makes a redelivery a no-op, across replicas too.
CREATE TABLE inbox (
  seq            BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id       TEXT    NOT NULL UNIQUE,
  dedup_key      TEXT    NOT NULL UNIQUE,
  noti_type      TEXT    NOT NULL,
  event_type     TEXT    NOT NULL,
  mall_id        TEXT    NOT NULL,
  pg_cno         TEXT    NOT NULL,
  shop_order_no  TEXT,
  body_hash      TEXT    NOT NULL,
  raw_body       BYTEA   NOT NULL,
  content_type   TEXT    NOT NULL,
  source_ip      TEXT    NOT NULL,
  received_at    TEXT    NOT NULL,
  -- TEXT, not JSONB: JSONB rejects the escape \u0000 and reorders keys, and a field the gateway
  -- sends must never make a notification unstorable or change what the queue receives.
  event_json     TEXT    NOT NULL,
  redeliveries   INTEGER NOT NULL DEFAULT 0,
  last_redelivered_at TEXT
);
CREATE INDEX inbox_shop_order_no ON inbox (shop_order_no);
CREATE INDEX inbox_received_at ON inbox (received_at);

-- Outbox: written in the same transaction as the inbox row; the relay drains it in seq order.
CREATE TABLE outbox (
  seq             BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  inbox_seq       BIGINT  NOT NULL UNIQUE REFERENCES inbox (seq),
  event_id        TEXT    NOT NULL UNIQUE,
  status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT  NOT NULL DEFAULT 0,
  last_error      TEXT,
  created_at      TEXT    NOT NULL,
  created_at_ms   BIGINT  NOT NULL,
  delivered_at    TEXT
);
-- Partial indexes: the relay's scan touches only undelivered rows however large the table grows.
CREATE INDEX outbox_pending ON outbox (seq) WHERE status = 'pending';
CREATE INDEX outbox_dead ON outbox (seq) WHERE status = 'dead';

-- Bodies we refused (5001/413/415), kept raw for an operator to inspect and reprocess.
CREATE TABLE rejections (
  id                   BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  received_at          TEXT    NOT NULL,
  source_ip            TEXT    NOT NULL,
  content_type         TEXT,
  raw_body             BYTEA,
  http_status          INTEGER NOT NULL,
  reason               TEXT    NOT NULL,
  reprocessed_at       TEXT,
  reprocessed_event_id TEXT
);

-- Redeliveries whose body differs from the stored one: acked, never forwarded, kept for review.
CREATE TABLE conflicts (
  id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  inbox_seq    BIGINT  NOT NULL REFERENCES inbox (seq),
  event_id     TEXT    NOT NULL,
  dedup_key    TEXT    NOT NULL,
  received_at  TEXT    NOT NULL,
  source_ip    TEXT    NOT NULL,
  content_type TEXT    NOT NULL,
  raw_body     BYTEA   NOT NULL,
  body_hash    TEXT    NOT NULL,
  event_json   TEXT    NOT NULL
);
CREATE INDEX conflicts_inbox_seq ON conflicts (inbox_seq);
