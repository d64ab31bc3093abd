import { placeholders, run, type Procedure } from './procedure';

/** A whole confirmed batch in one statement, so it costs one commit. */
export function* markDelivered(seqs: readonly number[], deliveredAt: string): Procedure<void> {
  if (seqs.length === 0) return;
  yield* run(
    `UPDATE outbox SET status = 'delivered', delivered_at = ?, attempts = attempts + 1, last_error = NULL
     WHERE seq IN (${placeholders(seqs.length)})`,
    deliveredAt, ...seqs,
  );
}
