import type { EventCounts } from '../../store';
import { get, type Procedure } from '../procedure';

export function* eventCounts(): Procedure<EventCounts> {
  const row = yield* get<Record<keyof EventCounts, number | string | null>>(
    `SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
       count(*) FILTER (WHERE status = 'delivered') AS delivered,
       count(*) FILTER (WHERE status = 'dead') AS dead
     FROM outbox`,
  );
  // PostgreSQL's count is a bigint, which pg hands over as a string.
  return { pending: Number(row?.pending ?? 0), delivered: Number(row?.delivered ?? 0), dead: Number(row?.dead ?? 0) };
}
