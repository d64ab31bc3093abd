import type { SessionLimits } from '../../store';
import { changes, oneTrip, type Procedure, type RunResult } from '../procedure';

/**
 * Expired sessions are already refused by `findSession`; this only keeps the table small. One
 * statement per clock, each a range of its own index (an OR of the two may read the table whole).
 */
export function* pruneExpiredSessions(now: number, limits: SessionLimits): Procedure<number> {
  const [idle, old] = (yield* oneTrip(
    changes('DELETE FROM sessions WHERE last_seen_at <= ?', now - limits.idleMs),
    changes('DELETE FROM sessions WHERE created_at <= ?', now - limits.absoluteMs),
  )) as RunResult[];
  return idle!.changes + old!.changes;
}
