import type { RecordResult } from '../../store';
import type { InboxRow } from './inbox-row';
import type { Procedure } from '../procedure';
import { recordNotifications } from './record-notifications';

/**
 * Dedup and store one notification: a new key writes inbox + outbox, the same body again is a
 * counted duplicate, a different body under the same key is kept as a conflict and not queued.
 * The decision is recordNotifications', which group commit runs for many at once.
 */
export function* recordNotification(row: InboxRow): Procedure<RecordResult> {
  return (yield* recordNotifications([row]))[0]!;
}
