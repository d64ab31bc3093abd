-- Same as migrations/sqlite/019_ledger_fold_states.sql: each order's fold checkpoint (the ledger's
-- replay after the order's last stored moment, as JSON), so an input stored after that moment is
-- applied to it instead of the whole history being replayed; ledger_facts stay the truth (an input
-- stored at or before it, other LEDGER_* settings and `ledger rebuild` replay from them). An order
-- without a row (projected before this migration, or left `ledger_error`) is replayed once.
CREATE TABLE ledger_fold_states (
  order_id       BIGINT PRIMARY KEY,
  settings       TEXT NOT NULL,
  last_moment    BIGINT,
  state_json     TEXT NOT NULL
);
