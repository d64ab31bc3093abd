import type { OutboxRecord } from '../../store';
import { PENDING_COLUMNS } from './columns';
import { all, type Procedure } from '../procedure';

/**
 * How many bytes of stored event JSON one read returns at most (beyond its first row): the rows
 * come to the relay, and on SQLite out of the database, in one turn of the event loop that the
 * gateway's acks share. 500 rows of 64 KiB bodies were ~32 MB in one turn; 1 MiB is a few ms.
 */
const PENDING_PAGE_BYTES = 1024 * 1024;

/**
 * Due or not: the relay keeps arrival order by waiting on the head row. The page is the head's
 * `limit` rows cut where their running size passes `maxBytes`, the first row always kept so an
 * event larger than the budget still moves. Sizes come from octet_length (both databases read it
 * from the value's header, not its content), and only the page's rows carry their JSON out.
 */
export function* nextPending(limit: number, maxBytes?: number): Procedure<OutboxRecord[]> {
  return yield* all<OutboxRecord>(
    `WITH head AS (
       SELECT o.seq, octet_length(i.event_json) AS size FROM outbox o JOIN inbox i ON i.seq = o.inbox_seq
       WHERE o.status = 'pending' ORDER BY o.seq LIMIT ?
     ), page AS (
       SELECT seq, SUM(size) OVER (ORDER BY seq) - size AS before FROM head
     )
     SELECT ${PENDING_COLUMNS} FROM page JOIN outbox o ON o.seq = page.seq JOIN inbox i ON i.seq = o.inbox_seq
     WHERE page.before < ? ORDER BY o.seq`,
    limit,
    maxBytes ?? PENDING_PAGE_BYTES,
  );
}
