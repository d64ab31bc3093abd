import { outboxChanged, run, type Procedure } from './procedure';

/** Back to pending at its first attempt; false when the id is unknown. */
export function* requeue(eventId: string): Procedure<boolean> {
  const { changes } = yield* run(
    `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0, delivered_at = NULL WHERE event_id = ?`,
    eventId,
  );
  if (changes > 0) yield* outboxChanged();
  return changes > 0;
}
