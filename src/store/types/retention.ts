export interface PruneCounts {
  events: number;
  rejections: number;
  conflicts: number;
}

/** One run of the retention policy: rows received before `cutoff` lost their bodies and data. */
export interface RetentionRun extends PruneCounts {
  ranAt: string;
  cutoff: string;
}

/** The retention policy's verbs: pruning what is past RETENTION_DAYS, and its runs. */
export interface RetentionQueries {
  /** One batch of the retention policy (see procedures/retention/prune-expired.ts). */
  pruneExpired(cutoff: string, prunedAt: string, limit: number): Promise<PruneCounts>;
  recordRetentionRun(run: RetentionRun): Promise<void>;
  lastRetentionRun(): Promise<RetentionRun | null>;
}
