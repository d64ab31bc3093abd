import type { EventExportPage, EventExportRow, EventSearch } from '../../store';
import { EVENT_COLUMNS } from '../inbox-outbox/columns';
import { OWN_EVENT_JSON_COLUMN, withOwnEventOrders } from '../inbox-outbox/own-event-order';
import { eventSearchConditions } from './event-search-conditions';
import { jsonField } from '../json-field';
import { all, dialect, pageEnd, type Dialect, type Procedure } from '../procedure';

/**
 * The currency of the event's order's expectation (null without one): a subquery by the orders'
 * unique key, one index search per row of the page.
 */
const orderCurrency = (dialect: Dialect): string =>
  `(SELECT ${jsonField(dialect, 'lo.record_json', ['expected', 'currency'])} FROM ledger_orders lo WHERE lo.shop_order_no = i.shop_order_no AND lo.mall_id = i.mall_id)`;

/**
 * The console's event list as an export reads it: the same filter, newest first, a page of rows
 * before the inbox seq `before` (keyset, so the millionth row costs what the first does; the page's
 * OFFSET paging would read every row before it), each with its stored event and its order's currency.
 */
export function* exportEventsPage(search: Omit<EventSearch, 'limit' | 'offset'>, before: number | null, limit: number): Procedure<EventExportPage> {
  const { where, params } = eventSearchConditions(search);
  const conditions = before === null ? where : `${where ? `${where} AND` : 'WHERE'} i.seq < ?`;
  const rows = yield* all<EventExportRow & { ownEventJson: string | null }>(
    `SELECT ${EVENT_COLUMNS}, ${OWN_EVENT_JSON_COLUMN}, i.event_json AS "eventJson", ${orderCurrency(yield* dialect())} AS "orderCurrency"
       FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq ${conditions} ORDER BY i.seq DESC LIMIT ?`,
    ...params, ...(before === null ? [] : [before]), limit,
  );
  const listed = withOwnEventOrders(rows) as EventExportRow[];
  return { rows: listed, last: pageEnd(rows, limit, (row) => Number(row.seq)) };
}
