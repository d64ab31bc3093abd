-- announce: replacing the inbox's event id index by one on (pg_cno, event_id): one-time, about 3 s per million stored notifications
--
-- The event id is sha256 of the dedup key, so its unique index put every new notification on a
-- random leaf of the index: one more 4 KiB page written and fsync'ed with each ack's commit, and
-- copied into a random place of the database file at the next checkpoint. With 1M stored rows
-- those scattered pages made the checkpoint's fsync slow, and the commits queued behind it (issue
-- 9: 0.62x bare Express with 1M rows against 0.80x on a fresh inbox, p99 21 ms against 11).
--
-- The dedup key starts with the gateway's pgCno, which the gateway hands out in order, so a unique
-- index on (pg_cno, event_id) takes new notifications at its end, a few leaves shared by a whole
-- commit, and decides duplicates just as well: the event id is derived from the dedup key, which
-- holds the pgCno, so one event id never has two pg_cno. It also serves the search by pgCno, so
-- inbox_pg_cno goes as well.
--
-- Lookups by the event id alone (an operator's event page, requeue, the search box given an id)
-- read this index whole instead, never the table: about 50 ms per million notifications, measured.
-- PostgreSQL keeps its event_id index: its inserts are not fsync'ed page by page.
DROP INDEX inbox_event_id;
DROP INDEX inbox_pg_cno;
CREATE UNIQUE INDEX inbox_pg_cno_event_id ON inbox (pg_cno, event_id);
