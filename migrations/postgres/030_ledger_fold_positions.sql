-- An order's fold checkpoint is no longer stored whole: the store keeps where it stands (its
-- settings key, its last moment, and a version token drawn at each write), and the projector's
-- thread keeps the fold's state itself in memory, under that token. A batch goes on from the kept
-- state only while the stored token is the one it was kept under; anything else (a restart, another
-- replica's projector, the writer's sweep, a rebuild, a batch whose write was thrown away) replays
-- the order once from ledger_facts, which stay the truth. The stored states are dropped: each
-- order's next input replays it once and keeps a position (the upgrade is lazy, per order).
CREATE TABLE ledger_fold_positions (
  order_id       BIGINT PRIMARY KEY,
  settings       TEXT NOT NULL,
  last_moment    BIGINT,
  version        TEXT NOT NULL
-- Indexed by order_id alone, never changed: every batch's update of a position can be HOT (heap
-- only), given room on its page for the row's next version.
) WITH (fillfactor = 50);
DROP TABLE ledger_fold_states;
