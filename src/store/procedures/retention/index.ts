/**
 * The retention policy: pruning what is past RETENTION_DAYS, and when it last ran. One line per
 * verb: under `retentionWrites` or `retentionReads` (see ../index.ts).
 */
import { lastRetentionRun } from './last-retention-run';
import { pruneExpired } from './prune-expired';
import { recordRetentionRun } from './record-retention-run';

export const retentionWrites = {
  pruneExpired,
  recordRetentionRun,
} as const;

export const retentionReads = {
  lastRetentionRun,
} as const;
