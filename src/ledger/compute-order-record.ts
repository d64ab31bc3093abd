import { replayDiscrepancies } from './discrepancy-lifecycle';
import type { LedgerFact, OrderKey } from './ledger-facts';
import type { LedgerSettings } from './ledger-settings';
import { epochMs, isoOf } from './ledger-time';
import { orderFigures } from './order-figures';
import type { Discrepancy, Expected, OrderRecord } from './order-record';
import { foldOrder, lastInputMs } from './order-state';
import { orderStatus } from './order-status';

export interface LedgerComputation {
  /** Null when no expectation, notification or cancellation names the order: nothing is known. */
  record: OrderRecord | null;
  /** When the sweep must look at this order again (a grace-period kind waits); null when nothing waits. */
  sweepAt: string | null;
}

/**
 * The order record (SPEC 7.2) as a pure function of the order's stored facts, the time and the
 * settings. The facts may come in any order and repeat: the result is the same.
 */
export function computeOrderRecord(
  order: OrderKey,
  facts: readonly LedgerFact[],
  options: { now: string; settings: LedgerSettings },
): LedgerComputation {
  const { discrepancies, sweepAt } = replayDiscrepancies(order, facts, options.settings, epochMs('now', options.now));
  const state = foldOrder(facts);
  const last = lastInputMs(state);
  if (last === null) return { record: null, sweepAt: null };
  const figures = orderFigures(state);
  const exp = figures.expectation?.fact;
  const expected: Expected | null = exp
    ? { amount: exp.amount, currency: exp.currency, method: exp.method, source: exp.source, expiresAt: exp.expiresAt }
    : null;
  const ordered = [...discrepancies].sort(byOpening);
  const record: OrderRecord = {
    mallId: order.mallId,
    shopOrderNo: order.shopOrderNo,
    status: orderStatus(figures, expected, ordered),
    expected,
    approved: figures.approved,
    cancelled: figures.cancelled,
    remaining: figures.remaining,
    deposited: figures.deposited,
    payments: figures.payments,
    cancels: figures.cancels,
    deposits: figures.deposits,
    escrow: figures.escrow,
    cancellationsRequested: figures.cancellationsRequested,
    events: figures.events,
    discrepancies: ordered,
    updatedAt: isoOf(Math.max(last, ...ordered.flatMap(lifecycleTimes))),
  };
  return { record, sweepAt };
}

function byOpening(a: Discrepancy, b: Discrepancy): number {
  const at = Date.parse(a.openedAt) - Date.parse(b.openedAt);
  return at !== 0 ? at : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function lifecycleTimes(d: Discrepancy): number[] {
  return d.resolvedAt === null ? [Date.parse(d.openedAt)] : [Date.parse(d.openedAt), Date.parse(d.resolvedAt)];
}
