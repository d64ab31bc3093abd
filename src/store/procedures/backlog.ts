import type { Backlog } from '../store';
import { get, type Procedure } from './procedure';

export function* backlog(now: number): Procedure<Backlog> {
  const row = yield* get<{ pending: number; dead: number; oldest: number | null }>(
    `SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
       count(*) FILTER (WHERE status = 'dead') AS dead,
       min(created_at_ms) FILTER (WHERE status = 'pending') AS oldest
     FROM outbox WHERE status IN ('pending', 'dead')`,
  );
  const { pending, dead, oldest } = row!;
  return { pending, dead, oldestPendingAgeMs: oldest === null ? null : Math.max(0, now - oldest) };
}
