import type { EventFilter, EventRow } from '../../store';
import { EVENT_COLUMNS } from './columns';
import { OWN_EVENT_JSON_COLUMN, withOwnEventOrders } from './own-event-order';
import { statusCondition } from '../console-operators/event-search-conditions';
import { all, type Param, type Procedure } from '../procedure';
import { receivedAtRange } from '../console-operators/received-at-range';

/**
 * Newest first; only the filters given become conditions, so PostgreSQL can type every parameter.
 * The service's own events name their order in the event only: it is read from there.
 */
export function* listEvents(filter: EventFilter): Procedure<EventRow[]> {
  const conditions: string[] = [];
  const params: Param[] = [];
  const where = (condition: string, ...values: Param[]) => {
    conditions.push(condition);
    params.push(...values);
  };
  if (filter.status !== undefined) where(statusCondition(filter.status));
  if (filter.type !== undefined) where('(i.event_type = ? OR i.noti_type = ?)', filter.type, filter.type);
  if (filter.shopOrderNo !== undefined) where('i.shop_order_no = ?', filter.shopOrderNo);
  const dates = receivedAtRange('i', filter.since);
  if (dates) where(dates.condition, ...dates.params);
  const rows = yield* all<EventRow & { ownEventJson: string | null }>(
    `SELECT ${EVENT_COLUMNS}, ${OWN_EVENT_JSON_COLUMN} FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq
     ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY i.seq DESC LIMIT ?`,
    ...params, filter.limit ?? 100,
  );
  return withOwnEventOrders(rows);
}

