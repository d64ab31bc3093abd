import { replayOrder } from './discrepancy-lifecycle';
import type { LedgerFact, OrderKey } from './ledger-facts';
import type { LedgerSettings } from '../config/ledger-settings';
import { epochMs } from './ledger-time';
import type { Discrepancy, Expected, OrderRecord } from './order-record';
import { orderStatus } from './order-status';

export interface LedgerComputation {
  /** Null when no expectation, notification or cancellation names the order: nothing is known. */
  record: OrderRecord | null;
  /** When the sweep must look at this order again (a grace-period kind waits); null when nothing waits. */
  sweepAt: string | null;
}

/**
 * The order record as a pure function of the order's stored facts, the time and the
 * settings. The facts may come in any order and repeat: the result is the same.
 */
export function computeOrderRecord(
  order: OrderKey,
  facts: readonly LedgerFact[],
  options: { now: string; settings: LedgerSettings },
): LedgerComputation {
  // The replay's last reading is of the final state: its figures are the record's, not computed again.
  const { discrepancies, sweepAt, figures, updatedAt } = replayOrder(order, facts, options.settings, epochMs('now', options.now));
  if (figures === null || updatedAt === null) return { record: null, sweepAt: null };
  const exp = figures.expectation?.fact;
  const expected: Expected | null = exp
    ? { amount: exp.amount, currency: exp.currency, method: exp.method, source: exp.source, expiresAt: exp.expiresAt }
    : null;
  const ordered = discrepancies.length > 1 ? byOpening(discrepancies) : discrepancies;
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
    ...(figures.refundsFailed.length > 0 && { refundsFailed: figures.refundsFailed }),
    escrow: figures.escrow,
    cancellationsRequested: figures.cancellationsRequested,
    events: figures.events,
    discrepancies: ordered,
    updatedAt,
    ...(figures.notifications.some((n) => n.fact.simulated === true) && { simulated: true as const }),
  };
  return { record, sweepAt };
}

/** By openedAt, then id; each time parsed once, not at every comparison. */
function byOpening(discrepancies: Discrepancy[]): Discrepancy[] {
  return discrepancies
    .map((d) => ({ d, ms: Date.parse(d.openedAt) }))
    .sort((a, b) => a.ms - b.ms || (a.d.id < b.d.id ? -1 : a.d.id > b.d.id ? 1 : 0))
    .map(({ d }) => d);
}
