import type { AlertPosition, NewAlert } from '../../types/alerts';
import { run, rowInserts, type Procedure, valueRows, sqlBySize, oneTrip } from '../procedure';

const INSERT_ALERTS = sqlBySize((rows) => `INSERT INTO alerts (alert_key, kind, alert_json, created_at) VALUES ${valueRows(rows, 4)}
  ON CONFLICT (alert_key) DO NOTHING`);

/**
 * The alerts read from `from` to `to`, stored with the position in one transaction: a crash before
 * the commit reads them again, after it finds them stored. The position moves only from where the
 * read began, so two processes reading at once store them once.
 */
export function* recordAlerts(from: AlertPosition, to: AlertPosition, alerts: readonly NewAlert[], at: string): Procedure<boolean> {
  const moved = yield* run(
    'UPDATE alert_position SET inbox_seq = ?, attempt_id = ? WHERE id = 1 AND inbox_seq = ? AND attempt_id = ?',
    to.inboxSeq, to.attemptId, from.inboxSeq, from.attemptId,
  );
  if (moved.changes === 0) return false;
  yield* oneTrip(...rowInserts(INSERT_ALERTS, 4, alerts.map((a) => [a.key, a.kind, a.json, at])));
  return true;
}
