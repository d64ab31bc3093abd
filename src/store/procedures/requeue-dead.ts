import { outboxChanged, run, type Procedure } from './procedure';

export function* requeueDead(): Procedure<number> {
  const { changes } = yield* run(`UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0 WHERE status = 'dead'`);
  if (changes > 0) yield* outboxChanged();
  return changes;
}
