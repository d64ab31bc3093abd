import type { SessionLimits } from '../../store';
import { run, type Procedure } from '../procedure';

/**
 * Restarts the idle clock of a live session. A replica whose clock runs behind never moves
 * last_seen_at back. Each touch is a commit: a caller may skip it while the session was seen
 * a moment ago.
 */
export function* touchSession(idHash: string, now: number, limits: SessionLimits): Procedure<boolean> {
  const touched = yield* run(
    `UPDATE sessions SET last_seen_at = CASE WHEN last_seen_at < ? THEN ? ELSE last_seen_at END
     WHERE id_hash = ? AND last_seen_at > ? AND created_at > ?`,
    now, now, idHash, now - limits.idleMs, now - limits.absoluteMs,
  );
  return touched.changes > 0;
}
