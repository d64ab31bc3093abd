import type { EventSearch } from '../../store';
import { historyInsert } from '../inbox-outbox/delivery-history';
import { eventSearchConditions } from './event-search-conditions';
import { outboxChanged, run, type Procedure } from '../procedure';

/** "Requeue all dead" for the console's current filter: only dead rows the filter selects. */
export function* requeueDeadMatching(search: Omit<EventSearch, 'limit' | 'offset'>, at: string, actor: string | null = null): Procedure<number> {
  const { where, params } = eventSearchConditions({ ...search, status: 'dead' });
  const selected = `SELECT o.seq FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq ${where}`;
  // The history rows first: afterwards the rows are no longer dead.
  yield* run(historyInsert('requeued', `FROM outbox o WHERE o.seq IN (${selected})`), at, null, null, null, actor, ...params);
  const { changes } = yield* run(
    `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0 WHERE seq IN (${selected})`,
    ...params,
  );
  if (changes > 0) yield* outboxChanged();
  return changes;
}
