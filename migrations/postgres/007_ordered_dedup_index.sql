-- Nothing to change here: SQLite's migration 007 replaced its unique index on the event id (a
-- hash) by one on (pg_cno, event_id), because SQLite writes and fsyncs a random page of it with
-- every ack's commit. PostgreSQL keeps event_id unique and pg_cno: its inserts are logged as small
-- WAL records, not as whole fsync'ed pages, and the same procedures find rows by either index.
-- The number is taken so both folders keep one sequence.
SELECT 1;
