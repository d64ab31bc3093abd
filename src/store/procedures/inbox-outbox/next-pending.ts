import type { OutboxRecord } from '../../store';
import { PENDING_COLUMNS } from './columns';
import { all, type Procedure } from '../procedure';

/** Due or not: the relay keeps arrival order by waiting on the head row. */
export function* nextPending(limit: number): Procedure<OutboxRecord[]> {
  return yield* all<OutboxRecord>(
    `SELECT ${PENDING_COLUMNS} FROM outbox o JOIN inbox i ON i.seq = o.inbox_seq
     WHERE o.status = 'pending' ORDER BY o.seq LIMIT ?`,
    limit,
  );
}
