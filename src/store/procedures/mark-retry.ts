import { run, type Procedure } from './procedure';

export function* markRetry(seq: number, error: string, nextAttemptAt: number): Procedure<void> {
  yield* run('UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE seq = ?', error, nextAttemptAt, seq);
}
