-- announce: storing the console search's rows in the order they were written: one-time, one copy of payment_search (about 4 s per million notifications, measured on 2 shared vCPUs)
--
-- payment_search (migration 021) was a WITHOUT ROWID table keyed by (shop_order_no, mall_id,
-- event_id): the whole row lived in that key's b-tree, so each notification's row was written at
-- its order number's place, a random leaf of the widest structure, in every projector batch. It
-- becomes an ordinary rowid table: a new row goes at the end (rowid max + 1), beside the rows the
-- same batch writes, and the existing rows are copied oldest first (at_ms), so the table reads in
-- time order. Its indexes are exactly what search-payments.ts looks rows up by, each holding the
-- 8-byte rowid instead of the three key columns:
--   (shop_order_no, mall_id, event_id) unique: the search by order number, and the dedup of a
--     notification written again (a projector batch computed twice: ON CONFLICT DO NOTHING);
--   (pg_cno); (approval_no) where there is one; (amount, at_ms) where there is one: the other
--     searches, the last one range of an amount's days, newest first.
-- Nothing references the table, so the copy needs no change to foreign keys.
CREATE TABLE payment_search_in_order (
  shop_order_no  TEXT NOT NULL,
  mall_id        TEXT NOT NULL,
  event_id       TEXT NOT NULL,
  noti_type      TEXT NOT NULL,
  pg_cno         TEXT NOT NULL,
  approval_no    TEXT,
  amount         BIGINT,
  method         TEXT,
  at_ms          BIGINT NOT NULL
);
INSERT INTO payment_search_in_order (shop_order_no, mall_id, event_id, noti_type, pg_cno, approval_no, amount, method, at_ms)
  SELECT shop_order_no, mall_id, event_id, noti_type, pg_cno, approval_no, amount, method, at_ms
  FROM payment_search ORDER BY at_ms, event_id;
DROP TABLE payment_search;
ALTER TABLE payment_search_in_order RENAME TO payment_search;
CREATE UNIQUE INDEX payment_search_key ON payment_search (shop_order_no, mall_id, event_id);
CREATE INDEX payment_search_pg_cno ON payment_search (pg_cno);
CREATE INDEX payment_search_approval_no ON payment_search (approval_no) WHERE approval_no IS NOT NULL;
CREATE INDEX payment_search_amount ON payment_search (amount, at_ms) WHERE amount IS NOT NULL;
