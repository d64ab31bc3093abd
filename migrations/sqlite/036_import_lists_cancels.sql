-- Whether an imported transaction list lists cancels as rows of their own (1: one of its rows placed in
-- an order is a cancel), as each of its `gateway_listing` facts says. The projector gives an order
-- notified after the import, on a day the import covers, the import's fact with no rows: the same
-- fact as the import's own for an order it does not list, so it needs the flag without reading the
-- import's rows. The imports stored before are read once, here.
ALTER TABLE reconciliation_imports ADD COLUMN lists_cancels INTEGER NOT NULL DEFAULT 0;
UPDATE reconciliation_imports SET lists_cancels = 1
  WHERE EXISTS (SELECT 1 FROM reconciliation_rows r WHERE r.import_id = reconciliation_imports.id AND r.kind = 'cancel' AND r.shop_order_no IS NOT NULL);

-- The rows no order was found for (the file names none and no notification named their pgCno): the
-- projector looks each notified pgCno up here to place the row in its order when the gateway's resend
-- arrives. Led by the pgCno, which the table's key (import, line) cannot answer.
CREATE INDEX reconciliation_rows_unplaced ON reconciliation_rows (pg_cno, import_id) WHERE shop_order_no IS NULL;
