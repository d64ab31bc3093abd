-- One row /readyz rewrites: a real commit through the same writer as the acks, so readiness
-- fails when a full disk or a read-only file would fail them.
CREATE TABLE store_probe (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  probed_at TEXT    NOT NULL
);
