import type { EventSearch } from '../store';
import { EVENT_ID_PREFIX } from '../../notifications/dedup-key';
import { EVENT_SEQ } from './event-seq';
import type { Param } from './procedure';

/**
 * The console's event filter as SQL conditions over `inbox i JOIN outbox o`. Only the filters
 * given become conditions, so PostgreSQL can type every parameter; the list and "requeue all
 * dead" share it, so the button acts on exactly the rows the operator sees.
 */
export function eventSearchConditions(search: Omit<EventSearch, 'limit' | 'offset'>): { where: string; params: Param[] } {
  const conditions: string[] = [];
  const params: Param[] = [];
  const add = (condition: string, ...values: Param[]) => {
    conditions.push(condition);
    params.push(...values);
  };
  if (search.query !== undefined) {
    // Every event id starts with evt_; only such a text pays for the lookup by id (see EVENT_SEQ).
    if (search.query.startsWith(EVENT_ID_PREFIX)) {
      add(`(i.shop_order_no = ? OR i.pg_cno = ? OR i.seq = ${EVENT_SEQ})`, search.query, search.query, search.query);
    } else {
      add('(i.shop_order_no = ? OR i.pg_cno = ?)', search.query, search.query);
    }
  }
  if (search.status !== undefined) add('o.status = ?', search.status);
  if (search.type !== undefined) add('(i.event_type = ? OR i.noti_type = ?)', search.type, search.type);
  if (search.from !== undefined) add('i.received_at >= ?', search.from);
  if (search.to !== undefined) add('i.received_at < ?', search.to);
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params };
}
