import type { NotificationFact } from './ledger-facts';
import { byTimeThenId } from './ledger-time';
import type { Cancel, RefundFailed } from './order-record';
import type { Timed } from './order-state';

type N = Timed<NotificationFact>;

/** A refund as the gateway reported it: its request (its 20, else its first 50), and whether a 50 completed it. */
interface Refund {
  request: N;
  completedBy: N[];
}

/**
 * The order's event 51s, each with the amount that failed. The gateway's document gives a 51 no
 * amount (result code and message, bank and account only): when it states none, the amount is the
 * refund it follows, the latest refund of the same payment or deposit (its pgCno, or the deposit a
 * refund names) dated at or before the 51 whose payout no 50 had completed by then. A refund is
 * one per cancelPgCno across its 20 and 50; a 50 naming no cancel completes the earliest event-20
 * refund of its payment still waiting (of its amount when it states one), whenever that came, as
 * the ledger's cancels read it, else is a refund of its own. The
 * amount is the one the ledger counts for that refund (`cancels`); null, and so shown as unknown,
 * when no such refund exists or its amount is unknown: never a silent 0.
 */
export function failedRefunds(notifications: readonly N[], moving: readonly N[], cancels: readonly Cancel[]): RefundFailed[] {
  return notifications
    .filter((n) => n.fact.notiType === '51')
    .map((failure): RefundFailed => ({
      pgCno: failure.fact.pgCno,
      amount: failure.fact.amount ?? namedAmount(failure, cancels) ?? amountOf(refundFailedBy(failure, moving), cancels),
      eventId: failure.id,
      at: failure.fact.at,
    }));
}

/** The refund a 51 follows: the latest one of its payment dated at or before it and not completed by then. */
function refundFailedBy(failure: N, moving: readonly N[]): Refund | null {
  const ofPayment = (n: N) => n.fact.pgCno === failure.fact.pgCno || n.fact.depositPgCno === failure.fact.pgCno;
  const reports = moving.filter((n) => (n.fact.notiType === '20' || n.fact.notiType === '50') && n.ms <= failure.ms && ofPayment(n));
  const refunds: Refund[] = [];
  const byKey = new Map<string, Refund>();
  const unkeyed: N[] = [];
  for (const n of reports) {
    const key = n.fact.cancelPgCno;
    if (key === null) {
      if (n.fact.notiType === '50') unkeyed.push(n);
      else refunds.push({ request: n, completedBy: [] });
      continue;
    }
    const refund = byKey.get(key);
    if (refund === undefined) {
      const created = { request: n, completedBy: [] };
      byKey.set(key, created);
      refunds.push(created);
    } else if (n.fact.notiType === '20' && refund.request.fact.notiType === '50') {
      // The 20 is the request; the 50 reported first (by time or arrival) completed it.
      refund.completedBy.push(refund.request);
      refund.request = n;
    } else if (n.fact.notiType === '50') refund.completedBy.push(n);
  }
  for (const completion of unkeyed) {
    const waiting = refunds
      .filter((r) => r.request.fact.notiType === '20' && r.completedBy.length === 0)
      .filter((r) => completion.fact.amount === null || statedOrNull(r.request) === null || statedOrNull(r.request) === completion.fact.amount);
    if (waiting[0] !== undefined) waiting[0].completedBy.push(completion);
    else refunds.push({ request: completion, completedBy: [] });
  }
  const open = refunds.filter((r) => r.completedBy.length === 0).sort((a, b) => byTimeThenId(a.request, b.request));
  return open[open.length - 1] ?? null;
}

/** A 51 that names its cancel (cancelPgCno) failed that one. */
function namedAmount(failure: N, cancels: readonly Cancel[]): number | null {
  const key = failure.fact.cancelPgCno;
  return key === null ? null : (cancels.find((c) => c.cancelPgCno === key)?.amount ?? null);
}

const statedOrNull = (n: N): number | null => n.fact.cancelAmount ?? n.fact.amount;

/** The amount the ledger counts for a refund: its cancel's, found by cancelPgCno or by the report that describes it. */
function amountOf(refund: Refund | null, cancels: readonly Cancel[]): number | null {
  if (refund === null) return null;
  const key = refund.request.fact.cancelPgCno;
  const cancel = key === null ? cancels.find((c) => c.eventId === refund.request.id) : cancels.find((c) => c.cancelPgCno === key);
  return cancel?.amount ?? statedOrNull(refund.request);
}
