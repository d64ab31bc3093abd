import type { RetentionRun } from '../../store';
import { get, type Procedure } from '../procedure';

/** What the retention policy last removed, for the overview. */
export function* lastRetentionRun(): Procedure<RetentionRun | null> {
  const row = yield* get<Record<keyof RetentionRun, string | number>>(
    `SELECT ran_at AS "ranAt", cutoff, events, rejections, conflicts FROM retention_runs ORDER BY id DESC LIMIT 1`,
  );
  if (!row) return null;
  return { ranAt: String(row.ranAt), cutoff: String(row.cutoff), events: Number(row.events), rejections: Number(row.rejections), conflicts: Number(row.conflicts) };
}
