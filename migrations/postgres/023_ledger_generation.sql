-- The projector reads and folds outside the writer (issue 37): its batch is computed from a
-- snapshot and written later in a short transaction, which first checks that nothing moved since
-- the snapshot. The position columns say whether another batch was applied; `generation` says
-- whether anything else recomputed orders meanwhile (a sweep, a rebuild page, a backfill page): it
-- grows by one in every transaction that writes the ledger's records.
ALTER TABLE ledger_projector ADD COLUMN generation BIGINT NOT NULL DEFAULT 0;
