import type { RetentionRun } from '../../store';
import { run, type Procedure } from '../procedure';

export function* recordRetentionRun(retentionRun: RetentionRun): Procedure<void> {
  const { ranAt, cutoff, events, rejections, conflicts } = retentionRun;
  yield* run('INSERT INTO retention_runs (ran_at, cutoff, events, rejections, conflicts) VALUES (?, ?, ?, ?, ?)', ranAt, cutoff, events, rejections, conflicts);
}
