-- announce: indexing what retention has not pruned yet: one-time, about 1 s per million stored notifications
--
-- Retention looks for delivered notifications older than RETENTION_DAYS that still hold their raw
-- body. Without an index that knows which rows are pruned it read the whole outbox and looked up
-- every inbox row, once per batch of 500, inside the writer's transaction: 0.7-1.6 s per batch on
-- a 1M-row inbox, measured, while every ack committed behind it waited (once an hour, and at
-- start). These partial indexes hold only rows not yet pruned, so a retention batch reads the
-- expired ones and nothing else (about 2 ms), however many months were pruned before.
-- received_at grows with arrival, so a new notification's entry lands at the index's end, in a
-- leaf the whole commit shares; pruning removes it.
CREATE INDEX inbox_unpruned ON inbox (received_at) WHERE pruned_at IS NULL;
CREATE INDEX conflicts_unpruned ON conflicts (received_at) WHERE pruned_at IS NULL;
CREATE INDEX rejections_unpruned ON rejections (received_at) WHERE pruned_at IS NULL;
