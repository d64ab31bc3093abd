import type { EventRow, EventSearch } from '../../store';
import { EVENT_COLUMNS } from '../inbox-outbox/columns';
import { eventSearchConditions } from './event-search-conditions';
import { all, type Procedure } from '../procedure';

/** Newest first, one page; the caller asks for one row more than it shows to know if a next page exists. */
export function* searchEvents(search: EventSearch): Procedure<EventRow[]> {
  const { where, params } = eventSearchConditions(search);
  return yield* all<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq ${where} ORDER BY i.seq DESC LIMIT ? OFFSET ?`,
    ...params, search.limit, search.offset,
  );
}
