-- announce: rebuilding the payment ledger's orders table with fewer indexes: one-time, about 8 s per million ledger orders, needing free disk of about 1.2 GB per million orders
--
-- Fewer random pages in every ack's commit (issue 21). SQLite writes whole 4 KiB pages of every
-- b-tree a commit touches, and three indexes of ledger_orders held the shop's order number, which
-- the shop chooses (no order): each new order put an entry on a random leaf of all three. Now:
-- - One unique key, (shop_order_no, mall_id). Both databases match the upsert's
--   ON CONFLICT (mall_id, shop_order_no) to a unique index by its set of columns, and every
--   lookup by the pair is one search of it; with the order number first, it is also the search by
--   the number alone (get-order.ts's findOrders, the console's Search box, `orders show`), so the
--   index on shop_order_no alone goes.
-- - The status list, (status, order_id): the orders of a status in the order they were first seen
--   (list-orders.ts pages by order_id), so a new order's entry appends where the commit's other rows
--   go. A status change still moves its entry, as it did.
-- - The sweep's index as it was.
-- Measured with bench/store-throughput.ts (SQLite, 32 in flight, 20000 notifications, bytes from
-- /proc/self/io, four alternated runs against the build before): 35.4-36.4 -> 30.6-31.4 KB written
-- per notification, about 5 KB (13 %) less.
--
-- SQLite cannot drop an inline UNIQUE, so the table is rebuilt as its documented procedure says
-- (https://sqlite.org/lang_altertable.html#otheralter): new table, copy, drop, rename, indexes,
-- all in the migration's transaction. Rows keep their order_id: ledger_facts are keyed by it (no
-- foreign key declares it, so foreign keys may stay on). The unique key is a named index built
-- after the copy (one sort instead of random inserts), which a later change can drop or replace
-- without another rebuild. Only ledger_orders is copied, not the facts; measured on 2 shared vCPUs
-- with 1M orders of about 600 bytes (a 1.3 GB file): 6.2 s in the transaction, 1.5 s for the
-- closing checkpoint; the WAL grows to about the copy's size (0.65 GB) and the file by as much
-- (1.3 -> 1.9 GB), the old copy's pages staying as free pages that new rows fill first.
CREATE TABLE ledger_orders_new (
  order_id       INTEGER PRIMARY KEY,
  mall_id        TEXT NOT NULL,
  shop_order_no  TEXT NOT NULL,
  status         TEXT,
  record_json    TEXT,
  sweep_at       INTEGER,
  updated_at     TEXT
);
INSERT INTO ledger_orders_new (order_id, mall_id, shop_order_no, status, record_json, sweep_at, updated_at)
  SELECT order_id, mall_id, shop_order_no, status, record_json, sweep_at, updated_at FROM ledger_orders ORDER BY order_id;
DROP TABLE ledger_orders;
ALTER TABLE ledger_orders_new RENAME TO ledger_orders;
CREATE UNIQUE INDEX ledger_orders_key ON ledger_orders (shop_order_no, mall_id);
CREATE INDEX ledger_orders_status ON ledger_orders (status, order_id) WHERE status IS NOT NULL;
CREATE INDEX ledger_orders_sweep ON ledger_orders (sweep_at) WHERE sweep_at IS NOT NULL;
