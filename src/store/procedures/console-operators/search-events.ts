import type { EventRow, EventSearch } from '../../store';
import { EVENT_COLUMNS } from '../inbox-outbox/columns';
import { OWN_EVENT_JSON_COLUMN, withOwnEventOrders } from '../inbox-outbox/own-event-order';
import { eventSearchConditions } from './event-search-conditions';
import { all, type Procedure } from '../procedure';

/** Newest first, one page (the service's own events with the order they name); the caller asks for one row more than it shows to know if a next page exists. */
export function* searchEvents(search: EventSearch): Procedure<EventRow[]> {
  const { where, params } = eventSearchConditions(search);
  const rows = yield* all<EventRow & { ownEventJson: string | null }>(
    `SELECT ${EVENT_COLUMNS}, ${OWN_EVENT_JSON_COLUMN} FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq ${where} ORDER BY i.seq DESC LIMIT ? OFFSET ?`,
    ...params, search.limit, search.offset,
  );
  return withOwnEventOrders(rows);
}
