-- announce: naming who wrote each stored inbox row (the gateway, the ledger or a command): one-time, one pass over the inbox that rewrites the service's own rows (about 25-30 s per million stored rows when half are the service's own, measured on 2 shared vCPUs under load)
--
-- inbox.origin: who wrote the row. 'gateway' for the gateway's notifications (the column's default,
-- which the receiver's own inserts rely on), 'ledger' for the ledger's events (order.status_changed,
-- order.updated, ledger.discrepancy), 'command' for a command's final state. The readers that want
-- the gateway's notifications alone, or the service's own events alone, test this column; none
-- was served by an index on the marker it replaces, so no index changes.
--
-- The rows the service wrote before it carry source_ip 'internal': a command's has the dedup key
-- 'command:' + its id, a ledger event's 'ledger:' + its id. Their source_ip becomes their origin, as
-- the service writes it from this release on: a text no address can equal, that tells a reader of
-- the table who wrote the row. The column stays NOT NULL (SQLite would rebuild the inbox to drop
-- that), and the views that show a source address show the gateway's rows only.
ALTER TABLE inbox ADD COLUMN origin TEXT NOT NULL DEFAULT 'gateway' CONSTRAINT inbox_origin CHECK (origin IN ('gateway', 'ledger', 'command'));
UPDATE inbox SET origin = CASE WHEN dedup_key LIKE 'command:%' THEN 'command' ELSE 'ledger' END,
    source_ip = CASE WHEN dedup_key LIKE 'command:%' THEN 'command' ELSE 'ledger' END
  WHERE source_ip = 'internal';
