-- A console for a team: named operators with roles, and console sessions that every
-- replica sees and a restart keeps.
--
-- operators.token_hash is the SHA-256 (hex) of the operator's token, never the token: tokens are
-- 32 random bytes, so there is nothing to guess and no dictionary for a salt or a slow hash to
-- defend against, and an unsalted hash can be looked up by an index at sign-in. NULL: an operator
-- who signs in through single sign-on (ADMIN_AUTH_HEADER) and has no token. Removing an operator
-- deletes the row (the audit log names people as text, so its history stays) and that operator's
-- sessions in the same transaction. The bootstrap operator `admin` (ADMIN_TOKEN) is not stored.
CREATE TABLE operators (
  name           TEXT NOT NULL PRIMARY KEY,
  role           TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
  token_hash     TEXT UNIQUE,
  created_at     TEXT NOT NULL,
  token_set_at   TEXT
);

-- id_hash is the SHA-256 (hex) of the session id the cookie carries, never the id. token_hash is
-- the hash of the token the session signed in with (NULL through single sign-on): the bootstrap
-- admin's sessions end when ADMIN_TOKEN changes. Clocks are epoch ms: a session ends
-- ADMIN_SESSION_IDLE_MINUTES after last_seen_at and 12 h after created_at, whichever comes first.
CREATE TABLE sessions (
  id_hash       TEXT    NOT NULL PRIMARY KEY,
  operator      TEXT    NOT NULL,
  csrf_token    TEXT    NOT NULL,
  token_hash    TEXT,
  created_at    BIGINT  NOT NULL,
  last_seen_at  BIGINT  NOT NULL
);
-- Removing an operator ends their sessions; pruning finds the expired ones by either clock.
CREATE INDEX sessions_operator ON sessions (operator);
CREATE INDEX sessions_last_seen_at ON sessions (last_seen_at);
CREATE INDEX sessions_created_at ON sessions (created_at);
