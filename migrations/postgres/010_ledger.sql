-- The payment ledger: per order, the facts it is computed from, the record computed from
-- them, and the discrepancies as rows for listing, counting and the metric.
--
-- The order's record as computed (JSON), with what the lists and the sweep find it by. A row
-- without a record (status NULL) is only the order's lock: a redelivery of a notification stored
-- before the ledger existed. sweep_at (epoch ms): when a grace-period kind opens if nothing changes.
-- order_id numbers orders as they are first seen: a new order's row and its facts (keyed by it)
-- land at the ends of their tables, on pages the whole commit shares. Keyed by (mall_id,
-- shop_order_no), an order number the shop chose put each new order's fat row (and each fact)
-- on a random page: about four 4 KiB pages more per notification in the ack's fsync'ed commit
-- (issue 21's measurement). Only the small key index takes a random page now.
CREATE TABLE ledger_orders (
  order_id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  mall_id        TEXT NOT NULL,
  shop_order_no  TEXT NOT NULL,
  status         TEXT,
  record_json    TEXT,
  sweep_at       BIGINT,
  updated_at     TEXT,
  UNIQUE (mall_id, shop_order_no)
);
CREATE INDEX ledger_orders_status ON ledger_orders (status, mall_id, shop_order_no) WHERE status IS NOT NULL;
-- An order is named by its number alone (the CLI's `orders show`); the mall only tells two apart.
CREATE INDEX ledger_orders_shop_order_no ON ledger_orders (shop_order_no);
CREATE INDEX ledger_orders_sweep ON ledger_orders (sweep_at) WHERE sweep_at IS NOT NULL;

-- ledger_facts hold ids, codes, amounts and times, never personal data: retention leaves them, so
-- an order can always be rebuilt (`noti-receiver ledger rebuild`). One row per fact id and order:
-- a redelivery is the same fact (ON CONFLICT DO NOTHING); the facts of an order lie together in the primary key.
-- Keyed by the order's number (order_id; no foreign key: orders are never deleted, and the insert
-- finds its order_id by the order's key), so a new order's facts append.
CREATE TABLE ledger_facts (
  order_id       BIGINT NOT NULL,
  id             TEXT NOT NULL,
  kind           TEXT NOT NULL,
  recorded_at    TEXT NOT NULL,
  fact_json      TEXT NOT NULL,
  PRIMARY KEY (order_id, id)
);

-- Each discrepancy of every record, rewritten with it. The open ones are a partial index of their
-- own: the metric counts them and the open list pages through them without reading the resolved.
CREATE TABLE ledger_discrepancies (
  id                 TEXT NOT NULL PRIMARY KEY,
  mall_id            TEXT NOT NULL,
  shop_order_no      TEXT NOT NULL,
  kind               TEXT NOT NULL,
  opened_at          TEXT NOT NULL,
  resolved_at        TEXT,
  resolved_by        TEXT,
  note               TEXT,
  discrepancy_json   TEXT NOT NULL
);
CREATE INDEX ledger_discrepancies_opened ON ledger_discrepancies (opened_at, id);
CREATE INDEX ledger_discrepancies_open ON ledger_discrepancies (opened_at, id, kind) WHERE resolved_at IS NULL;
