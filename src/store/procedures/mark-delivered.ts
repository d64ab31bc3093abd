import { historyInsert } from './delivery-history';
import { placeholders, run, type Procedure } from './procedure';

/**
 * A whole confirmed batch in one commit: one statement marks the outbox rows, one adds a history
 * row for each of them. `publisher` is the publisher kind, when the caller names it.
 */
export function* markDelivered(seqs: readonly number[], deliveredAt: string, publisher: string | null = null): Procedure<void> {
  if (seqs.length === 0) return;
  const seqList = placeholders(seqs.length);
  yield* run(
    `UPDATE outbox SET status = 'delivered', delivered_at = ?, attempts = attempts + 1, last_error = NULL
     WHERE seq IN (${seqList})`,
    deliveredAt, ...seqs,
  );
  yield* run(historyInsert('delivered', `FROM outbox o WHERE o.seq IN (${seqList})`), deliveredAt, null, publisher, null, null, ...seqs);
}
