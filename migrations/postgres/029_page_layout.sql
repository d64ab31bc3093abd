-- The tables a projector batch updates in place keep room on each page for the rows' next versions,
-- so that an update can be HOT (heap-only): its new version goes on the same page and no index is
-- written, where an update without room writes the row to another page and a new entry into every
-- index of the table. PostgreSQL makes an update HOT only when no indexed column (nor a column of a
-- partial index's condition) changes and the page has room; the fillfactor gives the room, on the
-- pages written from now on (a page filled before keeps its rows until they move or a VACUUM FULL).
--
-- ledger_orders: indexed by order_id (never changed), (shop_order_no, mall_id) (never changed),
--   (status, order_id) where status is set, and sweep_at where set. An input that leaves the
--   order's status and grace sweep as they were (a partial cancel after the first, a repeated
--   deposit, a resolution) rewrites only record_json and updated_at: HOT. One that changes the
--   status or the sweep time cannot be. A record is kept inline up to about 2 KiB (TOAST beyond),
--   so a page holds few rows: a fifth of it is left free.
-- (ledger_fold_positions, which replaces the fold states in 030, is made with its room there.)
-- ledger_projector: one row, indexed by its id: every batch's update of the position is HOT.
-- summary_daily: indexed by its key (day, mall_id, currency, kind, method), never changed; a
--   batch adds to count and amount: HOT.
-- (summary_order_status went in 028: an order's status day is a column of ledger_orders now;
--   summary_order_days is only ever added to.)
-- ledger_discrepancies is updated only when a discrepancy changes; its resolution changes
--   resolved_at, the condition of the open ones' index, so it is never HOT and gets no room.
ALTER TABLE ledger_orders SET (fillfactor = 80);
ALTER TABLE ledger_projector SET (fillfactor = 50);
ALTER TABLE summary_daily SET (fillfactor = 70);

-- payment_search (migration 021) already lies in the order it was written: PostgreSQL's heap takes
-- each new row at its end whatever the key. Its indexes are exactly what search-payments.ts looks
-- rows up by: the primary key (shop_order_no, mall_id, event_id), which finds an order's rows by
-- its number and keeps a notification written again once (ON CONFLICT DO NOTHING); pg_cno;
-- approval_no where there is one; (amount, at_ms) where there is one. SQLite's 029 copies the
-- table into the same shape; here there is nothing to change.
