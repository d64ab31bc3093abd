import type { Backlog } from '../../store';
import { get, type Procedure } from '../procedure';

/**
 * One scalar subquery per figure, each answered by its own partial index (outbox_pending,
 * outbox_dead): `status IN ('pending', 'dead')` matches neither index's condition, so the planner
 * would read the whole outbox instead, a time that grows with the outbox, on the event loop of
 * every readiness probe and metrics scrape (BENCHMARKS.md has the figure).
 */
export function* backlog(now: number): Procedure<Backlog> {
  const row = yield* get<{ pending: number | string; dead: number | string; oldest: number | string | null }>(
    `SELECT (SELECT count(*) FROM outbox WHERE status = 'pending') AS pending,
       (SELECT count(*) FROM outbox WHERE status = 'dead') AS dead,
       (SELECT min(created_at_ms) FROM outbox WHERE status = 'pending') AS oldest`,
  );
  // PostgreSQL's count is a bigint, which pg hands over as a string.
  const { pending, dead, oldest } = row!;
  return { pending: Number(pending), dead: Number(dead), oldestPendingAgeMs: oldest === null ? null : Math.max(0, now - Number(oldest)) };
}
