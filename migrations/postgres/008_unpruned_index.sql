-- announce: indexing what retention has not pruned yet: one-time, about 1 s per million stored notifications
--
-- Retention looks for delivered notifications older than RETENTION_DAYS that still hold their raw
-- body. Without an index that knows which rows are pruned, every batch of 500 read every row
-- received before the cutoff, pruned months ago or not. These partial indexes hold only rows not
-- yet pruned, so a retention batch reads the expired ones and nothing else (SQLite's 008 says
-- what it cost there). Built in the migration's transaction: writes wait for it, about a second
-- per million notifications.
CREATE INDEX inbox_unpruned ON inbox (received_at) WHERE pruned_at IS NULL;
CREATE INDEX conflicts_unpruned ON conflicts (received_at) WHERE pruned_at IS NULL;
CREATE INDEX rejections_unpruned ON rejections (received_at) WHERE pruned_at IS NULL;
