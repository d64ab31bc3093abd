import { historyInsert } from './delivery-history';
import { outboxChanged, run, type Procedure } from './procedure';

/** Back to pending at its first attempt, its history kept with a requeue entry; false when the id is unknown. */
export function* requeue(eventId: string, at: string, actor: string | null = null): Procedure<boolean> {
  const { changes } = yield* run(
    `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0, delivered_at = NULL WHERE event_id = ?`,
    eventId,
  );
  if (changes > 0) {
    yield* run(historyInsert('requeued', 'FROM outbox o WHERE o.event_id = ?'), at, null, null, null, actor, eventId);
    yield* outboxChanged();
  }
  return changes > 0;
}
