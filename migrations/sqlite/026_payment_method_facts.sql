-- announce: giving the stored payments their method as the gateway reported it: one-time, one pass over the payment facts (about 10-15 s per million facts, measured on 2 shared vCPUs); run `noti-receiver ledger rebuild` afterwards
--
-- The day's money splits payments by the method the gateway reported (payMethodTypeCode, a UnionPay
-- form's pay_type), which the ledger's notification facts keep from this release on (`payMethod`).
-- The payments stored before it get theirs from the console search's rows (migration 021), which
-- hold that code per notification and, like the facts, outlive the inbox's retention. A payment the
-- search has no code for keeps none, and the day's money reads the shop's expectation for it, as
-- before. The fold checkpoints of the orders changed are dropped, so their next input replays them
-- from the facts; their records and the day's money follow once `noti-receiver ledger rebuild`
-- has run (or at each order's next input).
UPDATE ledger_facts SET fact_json = json_set(fact_json, '$.payMethod', (
    SELECT p.method FROM ledger_orders o JOIN payment_search p ON p.shop_order_no = o.shop_order_no AND p.mall_id = o.mall_id AND p.event_id = ledger_facts.id
    WHERE o.order_id = ledger_facts.order_id))
  WHERE kind = 'notification' AND json_valid(fact_json) AND json_extract(fact_json, '$.notiType') IN ('10', '70')
    AND json_extract(fact_json, '$.payMethod') IS NULL
    AND EXISTS (SELECT 1 FROM ledger_orders o JOIN payment_search p ON p.shop_order_no = o.shop_order_no AND p.mall_id = o.mall_id AND p.event_id = ledger_facts.id
      WHERE o.order_id = ledger_facts.order_id AND p.method IS NOT NULL AND p.method <> '');
DELETE FROM ledger_fold_states WHERE order_id IN (
  SELECT order_id FROM ledger_facts WHERE kind = 'notification' AND json_valid(fact_json) AND json_extract(fact_json, '$.payMethod') IS NOT NULL);
