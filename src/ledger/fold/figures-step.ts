import type { NotificationFact } from './ledger-facts';
import { byTimeThenId } from './ledger-time';
import { cancelledInFull, cancelOf, holderOf, statedAmount } from './order-cancels';
import { amountsOf, ESCROW_DEPOSIT, escrowOf, succeeded, type OrderFigures } from './order-figures';
import type { Payment } from './order-record';
import type { Timed } from './order-state';

type N = Timed<NotificationFact>;

/**
 * How a new notification changes the figures when it can be applied to them as they stand,
 * instead of reading the order's whole state again (`orderFigures`, which sorts and walks every
 * notification): only for one that comes after every notification the order has (by the gateway's
 * time, then id) and whose effect is local:
 * - `listed`: it did not succeed (and is no 51, which the refund conditions read whatever its
 *   resCd): it moves no money, it is only listed;
 * - `escrow`: an event 40 other than an escrow deposit (ES04): the latest escrow status;
 * - `cancel`: an event 20 or 50 with a cancelPgCno no report has named yet and an amount of its own:
 *   a new cancel, last by time, that takes from its holding what it states;
 * - `confirm`: an event 50 naming a cancel already described with an amount: it adds no money.
 * Anything else (a payment, a deposit, a deposit cancel, a 51, a refund that names no cancel,
 * an order with such refunds, failed transfers or refused notifications, one out of order) is
 * null: the caller reads the whole state, which is always right.
 */
export type FigureStep = 'listed' | 'escrow' | 'cancel' | 'confirm';

export function figureStep(figures: OrderFigures, n: N): FigureStep | null {
  // A refusal or a gateway list or statement is matched against every notification: a new one is read whole.
  if (figures.refusals.length > 0 || figures.listings.length > 0 || figures.settlements.length > 0) return null;
  const last = figures.notifications[figures.notifications.length - 1];
  if (last === undefined || byTimeThenId(last, n) >= 0) return null;
  const { notiType, statusCode, cancelPgCno } = n.fact;
  if (notiType === '51') return null;
  if (!succeeded(n)) return 'listed';
  if (notiType === '40') return statusCode === ESCROW_DEPOSIT ? null : 'escrow';
  if ((notiType !== '20' && notiType !== '50') || cancelPgCno === null) return null;
  // An unkeyed 50 confirms an event-20 cancel whenever it came; a 51 is settled by a later 50.
  if (figures.unkeyedRefunds > 0 || figures.transferFailures > 0) return null;
  const described = figures.cancelKeys.get(cancelPgCno);
  if (described === undefined) return statedAmount(n) === null ? null : 'cancel';
  return notiType === '50' && statedAmount(described) !== null ? 'confirm' : null;
}

/**
 * Applies the step to the figures, in place: they become `orderFigures` of the state with the
 * notification added. They are the fold's own (a record made of them copied their sums and
 * holds their objects, which are replaced, never changed); its lists only grow, and a record
 * shows each as it stood when it was made (`grown-list.ts`): copying them would make each step
 * cost as much as the order's history. False, with nothing changed, when the sums would stop
 * being exact: the caller reads the whole state, which says why.
 */
export function stepFigures(figures: OrderFigures, n: N, step: FigureStep): boolean {
  let { amountBound } = figures;
  if (step !== 'listed') {
    for (const amount of amountsOf(n)) amountBound += Math.abs(amount ?? 0);
    if (!Number.isSafeInteger(amountBound)) return false;
  }
  figures.amountBound = amountBound;
  figures.notifications.push(n);
  figures.events.push(n.id);
  // Stepped only onto an order with notifications already (its first goes through orderFigures).
  if (n.fact.simulator !== true) figures.simulated = false;
  if (step === 'escrow') figures.escrow = escrowOf(n);
  if (step === 'cancel') addCancel(figures, n);
  return true;
}

function addCancel(figures: OrderFigures, n: N): void {
  const amount = statedAmount(n)!;
  const holder = holderOf(figures, n.fact);
  figures.cancelled += amount;
  figures.remaining -= amount;
  if (holder === null) figures.unheldCancelled += amount;
  figures.cancels.push(cancelOf(n, amount, figures.remaining));
  figures.cancelEvents.push(n);
  figures.cancelHolders.push(holder);
  figures.cancelKeys.set(n.fact.cancelPgCno!, n);
  if (holder === null) return;
  const holding = figures.holdings.get(holder)!;
  holding.taken += amount;
  const index = figures.payments.findIndex((p) => p.pgCno === holder);
  const cancelled = cancelledInFull(holding);
  if (index >= 0 && figures.payments[index]!.cancelled !== cancelled) {
    // A record made before holds the list and its items: the list is replaced, not changed.
    const payments = figures.payments.slice();
    payments[index] = { ...payments[index]!, cancelled } satisfies Payment;
    figures.payments = payments;
  }
}
