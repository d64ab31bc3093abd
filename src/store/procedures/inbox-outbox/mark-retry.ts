import { historyInsert } from './delivery-history';
import { run, type Procedure } from '../procedure';

export function* markRetry(seq: number, error: string, nextAttemptAt: number, at: string, publisher: string | null = null): Procedure<void> {
  yield* run('UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE seq = ?', error, nextAttemptAt, seq);
  yield* run(historyInsert('retry', 'FROM outbox o WHERE o.seq = ?'), at, error, publisher, new Date(nextAttemptAt).toISOString(), null, seq);
}
