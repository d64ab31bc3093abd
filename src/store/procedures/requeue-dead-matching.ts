import type { EventSearch } from '../store';
import { eventSearchConditions } from './event-search-conditions';
import { outboxChanged, run, type Procedure } from './procedure';

/** "Requeue all dead" for the console's current filter: only dead rows the filter selects. */
export function* requeueDeadMatching(search: Omit<EventSearch, 'limit' | 'offset'>): Procedure<number> {
  const { where, params } = eventSearchConditions({ ...search, status: 'dead' });
  const { changes } = yield* run(
    `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = 0
     WHERE seq IN (SELECT o.seq FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq ${where})`,
    ...params,
  );
  if (changes > 0) yield* outboxChanged();
  return changes;
}
