import type { RemovedOperator } from '../../store';
import { changes, oneTrip, type Procedure, type RunResult } from '../procedure';

/**
 * The operator and every session of theirs, in one transaction: on every replica their next
 * request finds no session. The audit log names people as text, so its rows stay.
 */
export function* removeOperator(name: string): Procedure<RemovedOperator> {
  const [sessions, operators] = (yield* oneTrip(
    changes('DELETE FROM sessions WHERE operator = ?', name),
    changes('DELETE FROM operators WHERE name = ?', name),
  )) as RunResult[];
  return { removed: operators!.changes > 0, sessionsEnded: sessions!.changes };
}
