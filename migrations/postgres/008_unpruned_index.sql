-- announce: splitting the inbox's date index by what retention has pruned: one-time, about 2 s per million stored notifications
--
-- Retention looks for delivered notifications older than RETENTION_DAYS that still hold their raw
-- body; without an index that knows which rows are pruned, every batch of 500 read every row
-- received before the cutoff, pruned months ago or not. As in SQLite's 008: the inbox's index on
-- received_at becomes two partial indexes that split the rows between them, inbox_unpruned (what
-- retention has left to prune, where new notifications land) and inbox_pruned; a date search reads
-- both. Built in the migration's transaction: writes wait for it, about 2 s per million.
CREATE INDEX inbox_unpruned ON inbox (received_at) WHERE pruned_at IS NULL;
CREATE INDEX inbox_pruned ON inbox (received_at) WHERE pruned_at IS NOT NULL;
DROP INDEX inbox_received_at;
CREATE INDEX conflicts_unpruned ON conflicts (received_at) WHERE pruned_at IS NULL;
CREATE INDEX rejections_unpruned ON rejections (received_at) WHERE pruned_at IS NULL;
