-- announce: moving the day's money to its daily totals alone: one-time, one pass over the ledger's orders and the summary's per-order rows
--
-- The day's money moves by deltas: each record the ledger writes adds its bookings less those of
-- the record it replaces (both pure functions of the records) to summary_daily, summed per batch,
-- so an order's write no longer rewrites its whole history's rows. What the per-order tables held
-- that the records do not show is carried here, and they go.
--
-- The day an order's status counts from (migration 025) is its own history, which no record shows:
-- it moves to the order's row. NULL: the totals do not count the order (projected before the
-- summary existed); its next record, or `ledger rebuild`, adds it whole. '' for an order counted
-- before 025 kept that day: its next change books on its own day, as before.
ALTER TABLE ledger_orders ADD COLUMN summary_day TEXT;
UPDATE ledger_orders SET summary_day = COALESCE(s.day, '') FROM summary_order_status s
  WHERE s.mall_id = ledger_orders.mall_id AND s.shop_order_no = ledger_orders.shop_order_no;

-- The day page's list: the orders with an event on a day, a row written only when an order gains a
-- day (facts are never pruned, so an order never loses one), read by its key in the page's order.
-- Carried from every day an order had a row on, so each day lists what it listed.
CREATE TABLE summary_order_days (
  day            TEXT NOT NULL,
  mall_id        TEXT NOT NULL,
  shop_order_no  TEXT NOT NULL,
  PRIMARY KEY (day, mall_id, shop_order_no)
) WITHOUT ROWID;
INSERT INTO summary_order_days (day, mall_id, shop_order_no)
  SELECT DISTINCT day, mall_id, shop_order_no FROM summary_bookings;

-- summary_daily's totals stay: they are the sums of the bookings these tables held.
DROP TABLE summary_bookings;
DROP TABLE summary_order_status;
