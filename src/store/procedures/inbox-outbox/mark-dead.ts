import { historyInsert } from './delivery-history';
import { run, type Procedure } from '../procedure';

export function* markDead(seq: number, error: string, at: string, publisher: string | null = null): Procedure<void> {
  yield* run(`UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = ? WHERE seq = ?`, error, seq);
  yield* run(historyInsert('dead', 'FROM outbox o WHERE o.seq = ?'), at, error, publisher, null, null, seq);
}
