-- announce: splitting the inbox's date index by what retention has pruned: one-time, about 2 s per million stored notifications
--
-- Retention looks for delivered notifications older than RETENTION_DAYS that still hold their raw
-- body. No index knew which rows were pruned, so it read the whole outbox and looked up every inbox
-- row, once per batch of 500, inside the writer's transaction: 0.7-1.6 s per batch on a 1M-row
-- inbox, measured, while every ack committed behind it waited (hourly, and at start).
--
-- The inbox's index on received_at becomes two partial indexes that split the rows between them:
-- inbox_unpruned holds what retention has not pruned yet, inbox_pruned the rest. Retention reads
-- the expired part of the first and nothing else (about 2 ms a batch); a date search reads both
-- (received-at-range.ts writes its condition so that it can). A new notification still adds one
-- entry, at the end of inbox_unpruned: a third index beside the plain one cost the store alone 3 %
-- at one write in flight and about 10 % at 32, measured, where this costs nothing on the ack path.
-- Conflicts and rejections, which the ack path rarely writes, get an index of their unpruned rows.
CREATE INDEX inbox_unpruned ON inbox (received_at) WHERE pruned_at IS NULL;
CREATE INDEX inbox_pruned ON inbox (received_at) WHERE pruned_at IS NOT NULL;
DROP INDEX inbox_received_at;
CREATE INDEX conflicts_unpruned ON conflicts (received_at) WHERE pruned_at IS NULL;
CREATE INDEX rejections_unpruned ON rejections (received_at) WHERE pruned_at IS NULL;
