import type { NotificationFact, OrderKey } from './ledger-facts';
import { ledgerId } from './ledger-id';
import type { LedgerSettings } from '../../config/ledger-settings';
import { epochMs } from './ledger-time';
import { sumOf } from './minor-units';
import type { DiscrepancyKind } from './order-record';
import { holderOf } from './order-cancels';
import { succeeded, type OrderFigures } from './order-figures';
import type { FigureStep } from './figures-step';
import { consistentInSomeOrder } from './tied-remainders';
import { gatewayListConditions } from './gateway-list-conditions';
import { settlementConditions } from './settlement-conditions';
import type { Timed } from './order-state';

import type { ShownCondition } from './shown-condition';

export type { DiscrepancyCondition, ShownCondition } from './shown-condition';

/**
 * The id derives from the order, the kind and the events that show it, so a redelivery (same
 * events) finds the same discrepancy and never opens it again, while a new event that changes
 * the picture (another payment, another cancel) shows a new one.
 */
export function discrepancyId(order: OrderKey, kind: DiscrepancyKind, eventIds: readonly string[]): string {
  return ledgerId('dsc_', [order.mallId, order.shopOrderNo, kind, eventIds]);
}

type Shown = ShownCondition;
type N = Timed<NotificationFact>;

/**
 * The conditions without their ids: a replay reads them at every moment and derives each id
 * (a SHA-256) once per kind and events, not once per moment.
 */
export function shownConditions(figures: OrderFigures, settings: LedgerSettings): ShownCondition[] {
  const moving = figures.notifications.filter(succeeded);
  const { paid } = figures;
  return [
    ...amountMismatches(figures, paid),
    ...duplicatePayment(figures, paid),
    ...overCancel(figures, moving),
    ...remainingMismatch(figures, moving),
    ...refundTransferFailures(figures),
    ...unexpectedPayments(figures, paid, settings),
    ...paymentsAfterExpiry(figures, paid),
    ...unknownRefundAmounts(figures),
    ...conflictingNotifications(figures),
    ...refusedNotifications(figures),
    ...gatewayListConditions(figures),
    ...settlementConditions(figures),
  ];
}

/** The kinds a new cancel can open, change or close: all read the cancels or what they leave. */
const MOVED_BY_CANCELS: ReadonlySet<DiscrepancyKind> = new Set(['duplicate_payment', 'over_cancel', 'remaining_mismatch']);

/**
 * The conditions after a figure step (`figures-step.ts`), from those before it, without reading
 * every notification again. A listed, escrow or confirming notification changes none, except that
 * a confirming 50 is one of the events an over_cancel or remaining_mismatch shows. A cancel
 * changes duplicate_payment (its remainder) and may make over_cancel or remaining_mismatch hold
 * or stop holding; the others read payments, expectations, failures, conflicts and refusals,
 * which a step never changes. Null when over_cancel or remaining_mismatch holds after the step:
 * their events are all of the order's cancels, so the caller reads the whole state.
 */
export function steppedConditions<C extends ShownCondition>(before: readonly C[], figures: OrderFigures, step: FigureStep, withId: (c: ShownCondition) => C): C[] | null {
  if (step === 'listed' || step === 'escrow') return [...before];
  if (step === 'confirm') return before.some((c) => c.kind === 'over_cancel' || c.kind === 'remaining_mismatch') ? null : [...before];
  if (figures.cancelled > figures.approved + figures.deposited || mismatches(figures).length > 0) return null;
  // In the order `shownConditions` gives them.
  return [
    ...before.filter((c) => c.kind === 'amount_mismatch'),
    ...duplicatePayment(figures, figures.paid).map(withId),
    ...before.filter((c) => c.kind !== 'amount_mismatch' && !MOVED_BY_CANCELS.has(c.kind)),
  ];
}

/** Each stored notification a redelivery contradicted (its latest such redelivery shown): never closes by itself. */
function conflictingNotifications({ conflicts }: OrderFigures): Shown[] {
  const latest = new Map<string, (typeof conflicts)[number]>();
  for (const c of conflicts) latest.set(c.fact.eventId, c);
  return [...latest.values()].map(({ fact: c }) => ({
    kind: 'conflicting_notification',
    eventIds: [c.eventId],
    details: {
      pgCno: c.pgCno, notiType: c.notiType,
      storedAmount: c.stored.amount, redeliveredAmount: c.redelivered.amount,
      storedCancelAmount: c.stored.cancelAmount, redeliveredCancelAmount: c.redelivered.cancelAmount,
      storedRemainAmount: c.stored.remainAmount, redeliveredRemainAmount: c.redelivered.remainAmount,
      storedResCd: c.stored.resCd, redeliveredResCd: c.redelivered.resCd,
      ...(c.orders && {
        storedMallId: c.orders.stored.mallId, storedShopOrderNo: c.orders.stored.shopOrderNo,
        redeliveredMallId: c.orders.redelivered.mallId, redeliveredShopOrderNo: c.orders.redelivered.shopOrderNo,
      }),
    },
  }));
}

/**
 * Each refused notification of the order until one of the same type and payment (and cancel, when
 * it names one) is accepted: a reprocess of it or a valid redelivery. The gateway retries a refused
 * notification (every 3 minutes, up to 10 times) and each retry is refused and kept again: those of
 * one type, payment and cancel are one discrepancy, shown by the first of them (its own fact id
 * stands in the event ids: a refusal has no event), so a retry never opens another and an
 * operator's resolution stays. One whose type or payment cannot be read is a discrepancy of its own.
 */
function refusedNotifications({ refusals, notifications }: OrderFigures): Shown[] {
  const shown = new Map<string, Shown>();
  for (const { fact: r } of refusals) {
    const readable = r.notiType !== null && r.pgCno !== null;
    const key = readable ? JSON.stringify([r.notiType, r.pgCno, r.cancelPgCno]) : r.id;
    if (shown.has(key)) continue;
    if (readable && notifications.some(({ fact: n }) => n.notiType === r.notiType && n.pgCno === r.pgCno && (r.cancelPgCno === null || n.cancelPgCno === r.cancelPgCno))) continue;
    shown.set(key, { kind: 'refused_notification', eventIds: [r.id], details: { rejectionId: r.rejectionId, notiType: r.notiType, pgCno: r.pgCno } });
  }
  return [...shown.values()];
}

function amountMismatches({ expectation }: OrderFigures, paid: N[]): Shown[] {
  if (expectation === null) return [];
  const expected = expectation.fact.amount;
  return paid
    .filter((n) => n.fact.amount !== expected)
    .map((n) => ({ kind: 'amount_mismatch', eventIds: [n.id], details: { pgCno: n.fact.pgCno, expected, notified: n.fact.amount } }));
}

/** What the live payments leave after cancels, against what one payment should have been. */
function duplicatePayment(figures: OrderFigures, paid: N[]): Shown[] {
  const cancelledDeposit = new Set(figures.deposits.filter((d) => d.cancelled).map((d) => d.eventId));
  const live = paid.filter((n) => !cancelledDeposit.has(n.id));
  if (live.length < 2) return [];
  const expected = figures.expectation?.fact.amount ?? null;
  const largest = Math.max(...live.map((n) => n.fact.amount ?? 0));
  if (figures.remaining <= (expected ?? largest)) return [];
  return [{
    kind: 'duplicate_payment',
    eventIds: live.map((n) => n.id),
    details: { payments: live.length, expected, largestPayment: largest, remaining: figures.remaining },
  }];
}

/** The cancels, and the deposit cancels that took money back out from under them. */
function overCancel(figures: OrderFigures, moving: N[]): Shown[] {
  const { approved, deposited, cancelled } = figures;
  if (cancelled <= approved + deposited) return [];
  const eventIds = moving.filter((n) => ['20', '50', '31'].includes(n.fact.notiType)).map((n) => n.id);
  return [{ kind: 'over_cancel', eventIds, details: { approved, deposited, cancelled } }];
}

/**
 * The gateway's remainder is the remainder of the payment it cancelled (event 20's pgCno). With
 * one payment that is the order's `remaining`; with several (a double payment being refunded)
 * only that payment's own remainder can be compared with it. A cancel whose pgCno has no payment
 * of its own (a basket's productPgCno, or one the order never paid) is compared with the basket
 * payment's remainder, else the order's.
 *
 * The latest event 20 by the gateway's time is the one compared, but that time has one-second
 * resolution: cancels stamped in the same second have no order of their own (their id's hash is
 * no order). They are consistent when, in some order, each stated remainder is the running
 * remainder after it; only when no order fits is it a mismatch.
 */
function remainingMismatch(figures: OrderFigures, moving: N[]): Shown[] {
  const deposits = new Set(figures.deposits.map((d) => d.eventId));
  return mismatches(figures).map(({ holder, last, computed }) => {
    const { pgCno, remainAmount: notified } = last.fact;
    const eventIds = moving.filter((n) => (n.fact.notiType !== '40' || deposits.has(n.id)) && (holder === null || holderOf(figures, n.fact) === holder)).map((n) => n.id);
    return { kind: 'remaining_mismatch', eventIds, details: { pgCno, notified, computed } };
  });
}

/** Each holding (null: the order as a whole) whose tied cancels fit its remainder in no order: its latest stated remainder, and the remainder computed. */
function mismatches(figures: OrderFigures): Array<{ holder: string | null; last: N; computed: number }> {
  const latest = findLast(figures.notifications, (n) => n.fact.notiType === '20' && succeeded(n));
  if (latest === undefined) return [];
  const second = secondOf(latest);
  // Cancels are by time: the tied ones are a run near the end (only later refunds may follow them).
  const tied: Array<{ n: N; holder: string | null; amount: number }> = [];
  for (let i = figures.cancels.length - 1; i >= 0; i -= 1) {
    const n = figures.cancelEvents[i]!;
    const at = secondOf(n);
    if (at < second) break;
    if (at === second) tied.unshift({ n, holder: figures.cancelHolders[i]!, amount: figures.cancels[i]!.amount ?? 0 });
  }
  const found: Array<{ holder: string | null; last: N; computed: number }> = [];
  for (const holder of new Set(tied.map((t) => t.holder))) {
    const members = tied.filter((t) => t.holder === holder).map((t) => ({ amount: t.amount, stated: statedRemainder(t.n) }));
    const last = findLast(tied, (t) => t.holder === holder && statedRemainder(t.n) !== null);
    if (last === undefined) continue;
    const computed = remainderAfter(figures, holder, second);
    if (!consistentInSomeOrder(computed + sumOf(members.map((m) => m.amount)), members)) found.push({ holder, last: last.n, computed });
  }
  return found;
}

const secondOf = (n: N): number => Math.floor(n.ms / 1000);

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i -= 1) if (test(items[i]!)) return items[i];
  return undefined;
}

const statedRemainder = (n: N): number | null => (n.fact.notiType === '20' ? n.fact.remainAmount : null);

/**
 * What the holding (or, for null, the order) had left once the cancels up to that second were taken: a refund the gateway reports later is not in the remainder it stated then.
 * What it has left now, plus what the cancels after that second took: those are a run at the end (usually none), so the cost does not grow with the order's history.
 */
function remainderAfter(figures: OrderFigures, holder: string | null, second: number): number {
  let later = 0;
  for (let i = figures.cancels.length - 1; i >= 0 && secondOf(figures.cancelEvents[i]!) > second; i -= 1) {
    if (holder === null || figures.cancelHolders[i] === holder) later += figures.cancels[i]!.amount ?? 0;
  }
  const holding = holder === null ? null : figures.holdings.get(holder)!;
  return (holding === null ? figures.remaining : holding.amount - holding.taken) + later;
}

/**
 * Each event 51 is a refund that must be repeated. A refund completed (event 50) for the same
 * payment that follows it shows it was repeated and paid out: by the gateway's times when both
 * carry one, else by the order they were received in (a 51 may carry no date of its own, and
 * a receipt time is no place among the gateway's). One 50 repeats one refund: it settles the
 * earliest failure it follows that it can be (the same cancel when both name one, the same amount
 * when both carry one), so repeating a small refund never clears a larger one still unpaid.
 */
function refundTransferFailures(figures: OrderFigures): Shown[] {
  const all = figures.notifications;
  const used = new Set<string>();
  return all.flatMap((failure): Shown[] => {
    if (failure.fact.notiType !== '51') return [];
    const repeat = all.find((n) => n.fact.notiType === '50' && succeeded(n) && !used.has(n.id) && n.fact.pgCno === failure.fact.pgCno && follows(n, failure) && repeats(n.fact, failure.fact));
    if (repeat !== undefined) {
      used.add(repeat.id);
      return [];
    }
    // The amount that failed as the record reads it (the refund the 51 follows when it states none), null when unknown.
    const amount = figures.refundsFailed.find((r) => r.eventId === failure.id)?.amount ?? null;
    return [{ kind: 'refund_transfer_failed', eventIds: [failure.id], details: { pgCno: failure.fact.pgCno, amount, resCd: failure.fact.resCd } }];
  });
}

/** Whether a refund completed can be the repeat of a failed one: nothing they both say differs. */
function repeats(refund: NotificationFact, failure: NotificationFact): boolean {
  if (refund.cancelPgCno !== null && failure.cancelPgCno !== null && refund.cancelPgCno !== failure.cancelPgCno) return false;
  return refund.amount === null || failure.amount === null || refund.amount === failure.amount;
}

function follows(later: N, earlier: N): boolean {
  if (later.fact.occurredAt !== null && earlier.fact.occurredAt !== null) return later.ms > earlier.ms || (later.ms === earlier.ms && later.id > earlier.id);
  return later.recordedMs > earlier.recordedMs || (later.recordedMs === earlier.recordedMs && later.id > earlier.id);
}

function unexpectedPayments({ expectation }: OrderFigures, paid: N[], settings: LedgerSettings): Shown[] {
  if (!settings.requireExpectation || expectation !== null) return [];
  return paid.map((n) => ({ kind: 'unexpected_payment', eventIds: [n.id], details: { pgCno: n.fact.pgCno, amount: n.fact.amount } }));
}

function paymentsAfterExpiry({ expectation }: OrderFigures, paid: N[]): Shown[] {
  const expiresAt = expectation?.fact.expiresAt ?? null;
  if (expiresAt === null) return [];
  const expiresMs = epochMs('expectation.expiresAt', expiresAt);
  return paid
    .filter((n) => n.ms > expiresMs)
    .map((n) => ({ kind: 'payment_after_expiry', eventIds: [n.id], details: { pgCno: n.fact.pgCno, at: n.fact.at, expiresAt } }));
}

/** A refund or cancel whose amount neither its own fields nor what it names can tell: it moved money the record cannot count. */
function unknownRefundAmounts(figures: OrderFigures): Shown[] {
  const shown: Shown[] = [];
  for (const c of figures.cancels) if (c.amount === null) shown.push({ kind: 'unknown_refund_amount', eventIds: [c.eventId], details: { pgCno: c.pgCno, cancelPgCno: c.cancelPgCno } });
  return shown;
}
