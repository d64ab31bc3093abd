-- announce: dropping the redundant unique indexes of inbox and outbox and indexing delivery_attempts by outbox_seq: one-time, about 1 s per million delivery attempts
--
-- Same meaning as migrations/sqlite/006_lean_indexes.sql: fewer index pages to write per acked
-- notification (issue 9).
-- - inbox.dedup_key UNIQUE goes: the event id is sha256(dedup key), so the unique event id decides
--   what is a duplicate, across replicas too: record-notification's ON CONFLICT DO NOTHING (no
--   target) now has exactly one key to wait on, and a racing copy of the same notification waits
--   for the winner's commit and is answered as a duplicate.
-- - outbox.event_id UNIQUE goes: the outbox is reached from the inbox by inbox_seq (unique).
-- - delivery_attempts is found by outbox_seq instead of event_id.
-- The names are the ones PostgreSQL gave the inline constraints of 001_init.sql. The identity
-- columns stay as they are (a sequence is not written per commit the way SQLite's is).
-- Building the new index reads the whole delivery history (0.7 s for 1M attempts, measured) and
-- holds writes to delivery_attempts (the relay's marks) back meanwhile; it comes first, so the
-- exclusive locks that dropping the constraints takes on inbox and outbox (acks of replicas
-- still running) last only an instant before COMMIT.
CREATE INDEX delivery_attempts_outbox_seq ON delivery_attempts (outbox_seq, id);
DROP INDEX delivery_attempts_event_id;
ALTER TABLE outbox DROP CONSTRAINT outbox_event_id_key;
ALTER TABLE inbox DROP CONSTRAINT inbox_dedup_key_key;
