-- Nothing for SQLite: the PostgreSQL migration of this number tunes autovacuum for the outbox.
-- SQLite reuses the space of a rewritten row within its page on the same write, and has no
-- dead row versions for a later scan to step over.
SELECT 1;
