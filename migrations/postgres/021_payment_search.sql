-- announce: indexing every stored notification for the console's search (approval number, amount, pgCno): one-time, one pass over the inbox (SQLite: about 16 s per million notifications, measured on 2 shared vCPUs)
--
-- The console's search finds an order by what a customer or the gateway's portal says about a
-- payment: its pgCno, its approval number, its amount (on a day). The order record knows neither
-- the approval number nor the payment method, and an amount inside record_json has no index, so
-- each notification of an order gets one small row here: ids, codes, the amount and the event's
-- time, never personal data (retention leaves it, as it leaves the ledger's facts).
--
-- The ledger's projector writes these rows in its own transaction, from the notifications its
-- batch reads (see payment-search-rows.ts): never in the ack's commit, which stays as lean as
-- before (issue 21). Keyed by (shop_order_no, mall_id, event_id): an order's rows lie together in
-- the key, found by the number as ledger_orders' key finds the order; a redelivery is the same row
-- (ON CONFLICT DO NOTHING). at_ms: the event's own time (occurredAt, else receivedAt) in epoch ms,
-- so a KST day is one range whatever offset the text carried.
CREATE TABLE payment_search (
  shop_order_no  TEXT NOT NULL,
  mall_id        TEXT NOT NULL,
  event_id       TEXT NOT NULL,
  noti_type      TEXT NOT NULL,
  pg_cno         TEXT NOT NULL,
  approval_no    TEXT,
  amount         BIGINT,
  method         TEXT,
  at_ms          BIGINT NOT NULL,
  PRIMARY KEY (shop_order_no, mall_id, event_id)
);
CREATE INDEX payment_search_pg_cno ON payment_search (pg_cno);
CREATE INDEX payment_search_approval_no ON payment_search (approval_no) WHERE approval_no IS NOT NULL;
-- "12,000 won yesterday": one range of (amount, time), newest first.
CREATE INDEX payment_search_amount ON payment_search (amount, at_ms) WHERE amount IS NOT NULL;

-- The notifications stored before this migration, read from their stored events as the projector
-- reads new ones. A row whose event is not valid JSON is left out (its order is a ledger_error):
-- PostgreSQL 15 has no IS JSON, so a function of this session's own schema reads it or says NULL.
-- A row that the projector has not reached yet is written again by it: the same key, nothing added.
CREATE FUNCTION pg_temp.payment_search_json(t TEXT) RETURNS JSON LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN t::json;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;
INSERT INTO payment_search (shop_order_no, mall_id, event_id, noti_type, pg_cno, approval_no, amount, method, at_ms)
  SELECT shop_order_no, mall_id, event_id, noti_type, pg_cno,
    NULLIF(e->'data'->>'approvalNo', ''),
    CASE WHEN json_typeof(e->'amount') = 'number' AND (e->>'amount') ~ '^-?[0-9]{1,15}$' THEN (e->>'amount')::bigint END,
    COALESCE(NULLIF(COALESCE(e->'data'->>'payMethodTypeCode', e->'data'->>'pay_type'), ''),
      CASE WHEN noti_type IN ('30', '31') THEN '22' END),
    (extract(epoch FROM COALESCE(e->>'occurredAt', received_at)::timestamptz) * 1000)::bigint
  FROM (SELECT i.*, pg_temp.payment_search_json(i.event_json) AS e FROM inbox i
        WHERE i.source_ip <> 'internal' AND i.shop_order_no IS NOT NULL) stored
  WHERE e IS NOT NULL
  ON CONFLICT DO NOTHING;
DROP FUNCTION pg_temp.payment_search_json(TEXT);

-- Cancelling a payment from the console is the admin's, or an operator's given the right by name
-- (`operators add <name> --role operator --can-cancel`): money leaves the shop, so a requeue's role
-- is not enough. 0/1, which both databases read alike.
ALTER TABLE operators ADD COLUMN can_cancel INTEGER NOT NULL DEFAULT 0;
