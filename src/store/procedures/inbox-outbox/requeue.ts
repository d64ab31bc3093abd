import { historyInsert } from './delivery-history';
import { EVENT_SEQ } from './event-seq';
import { outboxChanged, run, type Procedure } from '../procedure';

/** The event's outbox row, through the event's inbox seq and the outbox's unique inbox_seq. */
const OUTBOX_OF_EVENT = `inbox_seq = ${EVENT_SEQ}`;

/** Back to pending at its first attempt, its history kept with a requeue entry; false when the id is unknown. */
export function* requeue(eventId: string, at: string, actor: string | null = null): Procedure<boolean> {
  const { changes } = yield* run(
    `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0, delivered_at = NULL WHERE ${OUTBOX_OF_EVENT}`,
    eventId,
  );
  if (changes > 0) {
    yield* run(historyInsert('requeued', `FROM outbox o WHERE o.${OUTBOX_OF_EVENT}`), at, null, null, null, actor, eventId);
    yield* outboxChanged();
  }
  return changes > 0;
}
