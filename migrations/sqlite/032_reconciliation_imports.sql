-- The gateway's transaction lists, imported from its merchant portal to be matched with the ledger.
--
-- One row per import. Its id is of the file's SHA-256 and the mall (`gwi_…`): the same file imported
-- again for the same mall finds its row and changes nothing. The row is written last, in the
-- transaction that gives the ledger its facts, so an import that stopped halfway has no row and is
-- imported again whole. first_day / last_day: the KST days its rows cover (YYYY-MM-DD); the latest
-- import of a day (imported_at, then id) is the gateway's word for that day.
CREATE TABLE reconciliation_imports (
  id             TEXT NOT NULL PRIMARY KEY,
  sha256         TEXT NOT NULL,
  kind           TEXT NOT NULL,
  file_name      TEXT NOT NULL,
  mall_id        TEXT NOT NULL,
  first_day      TEXT NOT NULL,
  last_day       TEXT NOT NULL,
  row_count      INTEGER NOT NULL,
  order_count    INTEGER NOT NULL,
  imported_by    TEXT NOT NULL,
  imported_at    TEXT NOT NULL
);
CREATE INDEX reconciliation_imports_days ON reconciliation_imports (mall_id, last_day, first_day);

-- Each row of an import as read: ids, amounts, status and times, never a column the mapping does not
-- name (no customer's name, card or account). day: the KST day of the row's transaction; order:
-- the order it was matched in (the file's order number, else the order its pgCno was notified for;
-- NULL when neither is known). Written in pages before the import's row (ON CONFLICT DO NOTHING:
-- an import taken up again writes them again). Kept like the ledger's facts, beyond retention.
CREATE TABLE reconciliation_rows (
  import_id        TEXT NOT NULL,
  line             INTEGER NOT NULL,
  mall_id          TEXT NOT NULL,
  day              TEXT NOT NULL,
  shop_order_no    TEXT,
  kind             TEXT NOT NULL,
  pg_cno           TEXT NOT NULL,
  cancel_pg_cno    TEXT,
  amount           BIGINT NOT NULL,
  cancelled_amount BIGINT,
  status           TEXT NOT NULL,
  status_text      TEXT NOT NULL,
  at               TEXT NOT NULL,
  method           TEXT,
  approval_no      TEXT,
  PRIMARY KEY (import_id, line)
) WITHOUT ROWID;
CREATE INDEX reconciliation_rows_day ON reconciliation_rows (mall_id, day, import_id);
