import { EVENT_ID_PREFIX } from '../../notifications/dedup-key';
import { ledgerId } from './ledger-id';
import type { DiscrepancyOpened, OrderStatusChanged, OrderSummary, OrderUpdated } from './ledger-event-schema';
import type { OrderRecord } from './order-record';
import { orderSummary } from './order-summary';

export type { DiscrepancyOpened, OrderStatusChanged, OrderUpdated } from './ledger-event-schema';
export type LedgerEvent = DiscrepancyOpened | OrderStatusChanged | OrderUpdated;

/**
 * What the internal queue must hear about a recomputation, from the record stored
 * before it (null when there was none) and the record computed now: each discrepancy the
 * previous record did not have, then the status change, or, when the status stays and the figures
 * moved (or the order, simulated until now, turned out real), `order.updated`, so a shop that
 * follows these events always holds the current figures.
 * Each carries `at`, the time of the change (the record's `updatedAt`, a stored time). Ids are
 * stable: a batch computed again after a failure computes the same events with the same ids, and
 * the outbox keeps one of each. A discrepancy's opening has one id for ever; a status change's and
 * an update's id covers the whole new record, so the same pair of statuses reached again later is
 * a new event. `nextJson` is `next` as JSON when the caller has made it already (to store it); made
 * here only when an event needs it.
 */
export function ledgerEvents(previous: OrderRecord | null, next: OrderRecord, nextJson?: string): LedgerEvent[] {
  const recordJson = () => nextJson ?? JSON.stringify(next);
  const known = new Set(previous?.discrepancies.map((d) => d.id) ?? []);
  const order = orderSummary(next);
  const events: LedgerEvent[] = next.discrepancies
    .filter((d) => !known.has(d.id))
    .map((discrepancy) => ({ id: ledgerId(EVENT_ID_PREFIX, ['ledger.discrepancy', discrepancy.id]), type: 'ledger.discrepancy', at: discrepancy.openedAt, discrepancy, order }));
  const from = previous?.status ?? null;
  const at = next.updatedAt;
  if (from !== next.status) {
    events.push({
      id: ledgerId(EVENT_ID_PREFIX, ['order.status_changed', next.mallId, next.shopOrderNo, from, next.status, recordJson()]),
      type: 'order.status_changed',
      at,
      from,
      to: next.status,
      order,
    });
  } else if (previous !== null && figuresMoved(orderSummary(previous), order)) {
    events.push({ id: ledgerId(EVENT_ID_PREFIX, ['order.updated', next.mallId, next.shopOrderNo, recordJson()]), type: 'order.updated', at, order });
  }
  return events;
}

function figuresMoved(before: OrderSummary, after: OrderSummary): boolean {
  return before.approved !== after.approved || before.cancelled !== after.cancelled || before.remaining !== after.remaining
    || before.deposited !== after.deposited || before.expected !== after.expected || before.currency !== after.currency
    // A simulated order shown real by a real notification: its open discrepancies become news.
    || before.simulated !== after.simulated;
}
