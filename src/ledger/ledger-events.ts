import { EVENT_ID_PREFIX } from '../notifications/dedup-key';
import { ledgerId } from './ledger-id';
import type { DiscrepancyOpened, OrderStatusChanged } from './ledger-event-schema';
import { orderSummary, type OrderRecord } from './order-record';

export type { DiscrepancyOpened, OrderStatusChanged } from './ledger-event-schema';
export type LedgerEvent = DiscrepancyOpened | OrderStatusChanged;

/**
 * What the internal queue must hear about a recomputation, from the record stored
 * before it (null when there was none) and the record computed now: each discrepancy the
 * previous record did not have, then the status change. Ids are stable: a transaction retried
 * after a failure computes the same events with the same ids, and the outbox keeps one of each.
 * A discrepancy's opening has one id for ever; a status change's id covers the whole new record,
 * so the same pair of statuses reached again later is a new event. `nextJson` is `next` as JSON
 * when the caller has made it already (to store it).
 */
export function ledgerEvents(previous: OrderRecord | null, next: OrderRecord, nextJson: string = JSON.stringify(next)): LedgerEvent[] {
  const known = new Set(previous?.discrepancies.map((d) => d.id) ?? []);
  const order = orderSummary(next);
  const at = next.updatedAt;
  const events: LedgerEvent[] = next.discrepancies
    .filter((d) => !known.has(d.id))
    .map((discrepancy) => ({ id: ledgerId(EVENT_ID_PREFIX, ['ledger.discrepancy', discrepancy.id]), type: 'ledger.discrepancy', at, discrepancy, order }));
  const from = previous?.status ?? null;
  if (from !== next.status) {
    events.push({
      id: ledgerId(EVENT_ID_PREFIX, ['order.status_changed', next.mallId, next.shopOrderNo, from, next.status, nextJson]),
      type: 'order.status_changed',
      at,
      from,
      to: next.status,
      order,
    });
  }
  return events;
}
