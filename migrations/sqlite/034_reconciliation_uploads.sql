-- A gateway portal file uploaded in the console, kept between its preview and the operator's
-- Import: in the database, so the replica that answers the confirmation finds what another replica
-- received. id: random and unguessable (`upl_…`); uploaded_by: the operator who uploaded it, the
-- only one who may import it; kind: `transactions`, `settlement` or `detect` as asked.
-- A staged file is deleted an hour after it arrived (the next upload deletes the older ones).
CREATE TABLE reconciliation_uploads (
  id           TEXT NOT NULL PRIMARY KEY,
  mall_id      TEXT NOT NULL,
  kind         TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  bytes        BLOB NOT NULL,
  uploaded_by  TEXT NOT NULL,
  uploaded_at  TEXT NOT NULL
);
CREATE INDEX reconciliation_uploads_at ON reconciliation_uploads (uploaded_at);

-- The column mapping an operator saved for a mall's list (field -> header text, JSON), tried before
-- the built-in header names on that mall's later uploads. One per mall and kind; saving again
-- replaces it (the audit log keeps each save).
CREATE TABLE reconciliation_mappings (
  mall_id   TEXT NOT NULL,
  kind      TEXT NOT NULL,
  mapping   TEXT NOT NULL,
  saved_by  TEXT NOT NULL,
  saved_at  TEXT NOT NULL,
  PRIMARY KEY (mall_id, kind)
);
