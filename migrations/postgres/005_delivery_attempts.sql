-- Every delivery attempt of an event, and every requeue, in order. The outbox row keeps only the
-- latest count and error; an operator asking "why was this late?" needs the whole history.
-- Rows are written by the same store write that marks the outcome, so they cost no extra commit.
-- attempt is the relay's attempt number in its run (it starts again at 1 after a requeue; NULL on
-- a requeue entry). error is stored as the relay hands it over and masked when shown; the
-- retention policy removes it (pruned_at) when it prunes the event.
CREATE TABLE delivery_attempts (
  id         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  outbox_seq BIGINT  NOT NULL REFERENCES outbox (seq),
  event_id   TEXT    NOT NULL,
  attempt    INTEGER,
  at         TEXT    NOT NULL,
  outcome    TEXT    NOT NULL CHECK (outcome IN ('delivered', 'retry', 'dead', 'requeued')),
  error      TEXT,
  publisher  TEXT,
  retry_at   TEXT,
  actor      TEXT,
  pruned_at  TEXT
);
CREATE INDEX delivery_attempts_event_id ON delivery_attempts (event_id, id);
