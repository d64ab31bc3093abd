import { historyInsert } from './delivery-history';
import { changes, lastTrip, placeholders, type Procedure } from '../procedure';

/**
 * A whole confirmed batch in one commit: one statement marks the outbox rows, one adds a history
 * row for each of them, both in one round trip. `publisher` is the publisher kind, when the caller
 * names it.
 */
export function* markDelivered(seqs: readonly number[], deliveredAt: string, publisher: string | null = null): Procedure<void> {
  if (seqs.length === 0) return;
  const seqList = placeholders(seqs.length);
  yield* lastTrip(
    changes(
      `UPDATE outbox SET status = 'delivered', delivered_at = ?, attempts = attempts + 1, last_error = NULL
       WHERE seq IN (${seqList})`,
      deliveredAt, ...seqs,
    ),
    // After the mark, in the same transaction: the history reads the attempt count it set.
    changes(historyInsert('delivered', `FROM outbox o WHERE o.seq IN (${seqList})`), deliveredAt, null, publisher, null, null, ...seqs),
  );
}
