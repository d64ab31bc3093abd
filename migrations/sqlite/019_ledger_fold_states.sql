-- Each order's fold checkpoint (issue 37): what the ledger's replay knows after the order's last
-- stored moment (its facts as `evolve` folded them, the discrepancies as they stand, the
-- resolutions that wait for theirs, the grace bookkeeping), as JSON, so an input stored after that
-- moment is applied to it instead of the order's whole history being replayed. An input stored at
-- or before it, or a checkpoint of other LEDGER_* settings, replays the order from ledger_facts
-- (which stay the truth: `ledger rebuild` replays from them and writes the checkpoint again).
-- last_moment (epoch ms) is a column so the projector's read of an order can skip its facts when
-- the batch's inputs all come after it. Keyed by ledger_orders.order_id; an order without a row
-- (projected before this migration, or left `ledger_error`) is replayed once from its facts.
CREATE TABLE ledger_fold_states (
  order_id       INTEGER PRIMARY KEY,
  settings       TEXT NOT NULL,
  last_moment    INTEGER,
  state_json     TEXT NOT NULL
);
