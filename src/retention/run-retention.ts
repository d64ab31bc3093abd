import type { RetentionQueries, RetentionRun } from '../store/store';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/**
 * Applies the retention policy once: everything received more than `days` before `now` loses
 * its raw body and event data, in short batches so acks never wait long behind it. Used by the
 * receiver (at start, then hourly) and by `noti-receiver retention prune`.
 */
export async function runRetention(store: Pick<RetentionQueries, 'pruneExpired' | 'recordRetentionRun'>, options: { days: number; now: Date }): Promise<RetentionRun> {
  const ranAt = options.now.toISOString();
  const cutoff = new Date(options.now.getTime() - options.days * DAY_MS).toISOString();
  const total = { events: 0, rejections: 0, conflicts: 0 };
  for (;;) {
    const batch = await store.pruneExpired(cutoff, ranAt, BATCH);
    total.events += batch.events;
    total.rejections += batch.rejections;
    total.conflicts += batch.conflicts;
    if (batch.events < BATCH && batch.rejections < BATCH && batch.conflicts < BATCH) break;
  }
  const run = { ranAt, cutoff, ...total };
  await store.recordRetentionRun(run);
  return run;
}
