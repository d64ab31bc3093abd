import { run, type Procedure } from './procedure';

export function* markDead(seq: number, error: string): Procedure<void> {
  yield* run(`UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = ? WHERE seq = ?`, error, seq);
}
