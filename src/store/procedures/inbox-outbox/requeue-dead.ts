import { historyInsert } from './delivery-history';
import { outboxChanged, run, type Procedure } from '../procedure';

export function* requeueDead(at: string, actor: string | null = null): Procedure<number> {
  // The history rows first: afterwards the rows are no longer dead.
  yield* run(historyInsert('requeued', `FROM outbox o WHERE o.status = 'dead'`), at, null, null, null, actor);
  const { changes } = yield* run(`UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0 WHERE status = 'dead'`);
  if (changes > 0) yield* outboxChanged();
  return changes;
}
