-- Alerts to people (a chat webhook, e-mail): what the service found wrong, told to whoever is on
-- duty. They are sent after the commit that stored their cause, from stored data alone, so an ack
-- never waits for a chat server and a crash between that commit and the send loses nothing.
--
-- Where the alerts' follower is in what it reads: the last inbox seq (the ledger's events, stored as
-- internal inbox rows) and the last delivery_attempts id (an event going dead) it has looked at.
-- An upgraded store starts after what it holds: what happened before alerts existed is not news.
CREATE TABLE alert_position (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  inbox_seq   BIGINT  NOT NULL,
  attempt_id  INTEGER NOT NULL
);
INSERT INTO alert_position (id, inbox_seq, attempt_id)
  SELECT 1, (SELECT COALESCE(MAX(seq), 0) FROM inbox), (SELECT COALESCE(MAX(id), 0) FROM delivery_attempts);

-- One row per thing to tell (a discrepancy opened, an order gone ledger_error, an event gone dead),
-- as the ids, kinds and amounts the message is written from: never personal data. alert_key is the
-- cause's own id, so reading the same cause twice stores it once.
CREATE TABLE alerts (
  id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  alert_key   TEXT    NOT NULL UNIQUE,
  kind        TEXT    NOT NULL,
  alert_json  TEXT    NOT NULL,
  created_at  TEXT    NOT NULL
);

-- Each channel (webhook, email) sends the alerts after sent_through, in order, at most one message
-- per digest window (last_sent_ms). A failed send waits next_try_ms (backoff on attempts). The lease
-- (owner, until) lets one process send at a time across replicas, and lets another take over when
-- its holder died mid-send.
CREATE TABLE alert_channels (
  channel         TEXT    PRIMARY KEY,
  sent_through    BIGINT  NOT NULL,
  last_sent_ms    BIGINT  NOT NULL DEFAULT 0,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_try_ms     BIGINT  NOT NULL DEFAULT 0,
  last_error      TEXT,
  lease_owner     TEXT,
  lease_until_ms  BIGINT  NOT NULL DEFAULT 0
);
