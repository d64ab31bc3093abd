import type { EventSearch, OutboxStatus } from '../../store';
import { EVENT_ID_PREFIX } from '../../../notifications/dedup-key';
import { EVENT_SEQ } from '../inbox-outbox/event-seq';
import type { Param } from '../procedure';
import { receivedAtRange } from './received-at-range';

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
  if (search.status !== undefined) add(statusCondition(search.status));
  if (search.type !== undefined) add('(i.event_type = ? OR i.noti_type = ?)', search.type, search.type);
  const dates = receivedAtRange('i', search.from, search.to);
  if (dates) add(dates.condition, ...dates.params);
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

const STATUS_CONDITIONS: Record<OutboxStatus, string> = {
  pending: "o.status = 'pending'",
  delivered: "o.status = 'delivered'",
  dead: "o.status = 'dead'",
};

/**
 * A state as literal SQL, taken from this closed table and never from the caller's text, so the
 * plan for "Requeue all dead" of a filter (in the writer's transaction) or a list by state reads
 * that state's partial index (outbox_pending, outbox_dead) whatever the bound values: with
 * `o.status = ?` SQLite picks the index only once it sees the value bound (it re-plans for partial
 * indexes), a plan explained without values reads the whole outbox, and a PostgreSQL generic plan
 * of a prepared statement cannot use a partial index at all.
 */
export function statusCondition(status: OutboxStatus): string {
  if (!Object.hasOwn(STATUS_CONDITIONS, status)) throw new Error(`unknown outbox status: ${String(status)}`);
  return STATUS_CONDITIONS[status];
}
