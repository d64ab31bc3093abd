-- The ledger follows the store (issue 29): acks write only the inbox and outbox; a projector applies
-- the stored inputs to the ledger behind them, in the order they were stored.
--
-- The ledger's inputs that are not notifications (an expectation PUT, a wallet trade that succeeded,
-- a wallet cancellation at a state, a resolution), each as its fact, written in the transaction that
-- stores the input. seq is the order they were stored in: every transaction that writes an input or an
-- inbox row holds the outbox-order lock from before it draws its seq to its commit, so a seq becomes
-- visible only after every lower one (the projector reading `seq > position` never skips one).
CREATE TABLE ledger_inputs (
  seq            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  mall_id        TEXT NOT NULL,
  shop_order_no  TEXT NOT NULL,
  fact_json      TEXT NOT NULL,
  recorded_at    TEXT NOT NULL
);

-- Where the projector is: the last inbox seq, input seq, conflict id and rejection id it applied
-- (a conflicting redelivery and a refused notification are inputs too), written in the same
-- transaction as what it applied, so a crash resumes exactly there. One row.
-- An upgraded store starts after what it holds: the ledger riding on the acks before this release
-- applied every notification already (`ledger backfill` gives the older ones their facts); conflicts
-- and refusals stored before it open nothing.
CREATE TABLE ledger_projector (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  inbox_seq      BIGINT NOT NULL,
  input_seq      BIGINT NOT NULL,
  conflict_id    BIGINT NOT NULL,
  rejection_id   BIGINT NOT NULL,
  projected_at   BIGINT
);
INSERT INTO ledger_projector (id, inbox_seq, input_seq, conflict_id, rejection_id, projected_at)
  SELECT 1, (SELECT COALESCE(MAX(seq), 0) FROM inbox), 0, (SELECT COALESCE(MAX(id), 0) FROM conflicts), (SELECT COALESCE(MAX(id), 0) FROM rejections), NULL;
