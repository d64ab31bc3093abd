-- Commands: calls to the gateway, recorded before the first byte is sent so a crash
-- never forgets a resend or a net-cancel. The key is the caller's idempotency key.
CREATE TABLE commands (
  shop_transaction_id TEXT    PRIMARY KEY,
  kind                TEXT    NOT NULL,
  mall_id             TEXT    NOT NULL,
  state               TEXT    NOT NULL,
  attempts            INTEGER NOT NULL DEFAULT 0,
  -- Attempts spent when an operator last retried the command: the budget counts from here.
  budget_start        INTEGER NOT NULL DEFAULT 0,
  body_hash           TEXT    NOT NULL,
  -- As last sent, derived fields (cancelReqDate, msgAuthValue) included and fixed at creation.
  request_json        TEXT    NOT NULL,
  response_json       TEXT,
  last_error          TEXT,
  created_at          TEXT    NOT NULL,
  updated_at          TEXT    NOT NULL,
  next_attempt_at     INTEGER NOT NULL,
  -- The lease: one replica works a command at a time; past locked_until it is anyone's.
  locked_by           TEXT,
  locked_until        INTEGER
);
CREATE INDEX commands_due ON commands (next_attempt_at) WHERE state IN ('pending', 'net_cancelling');
CREATE INDEX commands_state ON commands (state, created_at);

-- Every send: begun (durably, before the send) and finished with the answer or the error.
CREATE TABLE command_attempts (
  shop_transaction_id TEXT    NOT NULL REFERENCES commands (shop_transaction_id),
  n                   INTEGER NOT NULL,
  operation           TEXT    NOT NULL,
  started_at          TEXT    NOT NULL,
  finished_at         TEXT,
  request_json        TEXT    NOT NULL,
  http_status         INTEGER,
  response_json       TEXT,
  -- What came back when it was not the gateway's JSON (an error page), cut to 1000 characters.
  answer_text         TEXT,
  error               TEXT,
  PRIMARY KEY (shop_transaction_id, n)
);
