import type { NotificationFact } from './ledger-facts';
import { byTimeThenId } from './ledger-time';
import type { Cancel, Deposit } from './order-record';
import type { Timed } from './order-state';

/** A payment or deposit, and what its cancels took from it: the status reads the money one holding at a time. */
export interface Holding {
  /** The payment's (or deposit's) pgCno. */
  pgCno: string;
  /** What was paid under it and still stands: its payment, and its deposit unless a 31 cancelled it. */
  amount: number;
  /** What the cancels it holds took (their amounts, an unknown one as 0). */
  taken: number;
}

/**
 * Where each cancel of the record's `cancels` (same index) came from: its notification, and the
 * holding it took its money from (its pgCno), or null: it names none of the order's payments, so
 * it comes off the order as a whole. Parallel arrays: a replay reads them at every stored moment.
 */
export interface CancelSources {
  cancelEvents: Array<Timed<NotificationFact>>;
  cancelHolders: Array<string | null>;
  /** The report that describes each cancelPgCno's cancel (of its 20 and 50), by cancelPgCno: a later report of it is looked up here. */
  cancelKeys: Map<string, Timed<NotificationFact>>;
  /** Event 50s with no cancelPgCno: each may confirm any event-20 cancel of its payment, whenever that came. */
  unkeyedRefunds: number;
}

/** The order's holdings by pgCno, and a basket's productPgCno → the pgCno of the payment whose basket lists it. */
export interface Holders {
  holdings: ReadonlyMap<string, Holding>;
  products: ReadonlyMap<string, string>;
}

type N = Timed<NotificationFact>;

const CANCEL_TYPES = new Set(['20', '50']);

/** A cancel's amount as it states it (its cancelAmount, else its amount); null when it states none. */
export const statedAmount = (n: N): number | null => n.fact.cancelAmount ?? n.fact.amount;

/** Payments and deposits merged by time, so the map is in the order they were paid; a cancelled deposit holds nothing. */
export function holdingsOf(paymentEvents: N[], depositEvents: N[], cancelledDeposits: ReadonlySet<string>): Map<string, Holding> {
  const holdings = new Map<string, Holding>();
  const deposits = new Set(depositEvents);
  for (const n of [...paymentEvents, ...depositEvents].sort(byTimeThenId)) {
    const cancelledDeposit = deposits.has(n) && cancelledDeposits.has(n.fact.pgCno);
    const amount = cancelledDeposit ? 0 : (n.fact.amount ?? 0);
    const current = holdings.get(n.fact.pgCno);
    if (current === undefined) holdings.set(n.fact.pgCno, { pgCno: n.fact.pgCno, amount, taken: 0 });
    else current.amount += amount;
  }
  return holdings;
}

/**
 * Which holding a notification's money belongs to: its own pgCno's, else the deposit it names
 * (`depositPgCno`), else the basket payment that lists its pgCno as a product. Null when none:
 * a cancel of a pgCno the order has no payment for comes off the order as a whole.
 */
export function holderOf(figures: Holders, fact: NotificationFact): string | null {
  if (figures.holdings.has(fact.pgCno)) return fact.pgCno;
  if (fact.depositPgCno !== undefined && figures.holdings.has(fact.depositPgCno)) return fact.depositPgCno;
  return figures.products.get(fact.pgCno) ?? null;
}

/**
 * One cancel per `cancelPgCno` across events 20 and 50: a refund the gateway reports as a change
 * and then as completed is one refund. The event 20 describes it (it carries cancelAmount), the
 * 50 only when no 20 came; an amount only the other report carries is still its amount. A 50
 * without a cancelPgCno confirms the earliest event-20 cancel of the same payment (its pgCno or
 * the deposit it names) and amount that no other 50 confirmed, one without an amount the earliest
 * of that payment; when there is none it is a refund of its own.
 *
 * A cancel's amount is its own (cancelAmount, else amount), else what it names: the deposit of
 * its `depositPgCno`, the report of the same cancel that has one, else what remains of its
 * payment (a 50 refunds what was left; a 20 that states its remainder cancelled the difference).
 * Null when none can tell: an `unknown_refund_amount`, never a silent 0.
 */
export function cancelsOf(moving: N[], holders: Holders, deposits: Deposit[], paid: number): { cancels: Cancel[] } & CancelSources {
  const depositAmount = (pgCno: string | undefined): number | null => (pgCno === undefined ? null : (deposits.find((d) => d.pgCno === pgCno)?.amount ?? null));
  const own = (n: N): number | null => statedAmount(n) ?? depositAmount(n.fact.depositPgCno);
  const chosen = new Map<string, N>();
  // The amount another report of the same cancel gave one that has none of its own (rare: a Map, not a wrapper per cancel).
  const reported = new Map<N, number>();
  const amountOf = (n: N): number | null => own(n) ?? reported.get(n) ?? null;
  const unkeyed: N[] = [];
  for (const n of moving) {
    if (!CANCEL_TYPES.has(n.fact.notiType)) continue;
    const key = n.fact.cancelPgCno;
    if (key === null) {
      if (n.fact.notiType === '50') unkeyed.push(n);
      else chosen.set(`event:${n.id}`, n);
      continue;
    }
    const current = chosen.get(key);
    if (current === undefined) chosen.set(key, n);
    else {
      const [described, other] = current.fact.notiType === '50' && n.fact.notiType === '20' ? [n, current] : [current, n];
      chosen.set(key, described);
      const amount = own(described) === null && !reported.has(described) ? amountOf(other) : null;
      if (amount !== null) reported.set(described, amount);
    }
  }
  const confirmed = new Set<string>();
  const confirm = (completion: N, amount: number | null): boolean => {
    const { pgCno, depositPgCno } = completion.fact;
    let match: [string, N] | undefined;
    for (const entry of chosen) {
      const [key, n] = entry;
      if (n.fact.notiType !== '20' || confirmed.has(key) || (n.fact.pgCno !== pgCno && n.fact.pgCno !== depositPgCno)) continue;
      if (amount !== null && amountOf(n) !== amount) continue;
      if (match === undefined || byTimeThenId(n, match[1]) < 0) match = entry;
    }
    if (match === undefined) return false;
    confirmed.add(match[0]);
    return true;
  };
  // Those that say their amount first: an amountless one must not take the cancel another names by amount.
  for (const completion of unkeyed) {
    const amount = own(completion);
    if (amount !== null && !confirm(completion, amount)) chosen.set(`event:${completion.id}`, completion);
  }
  for (const completion of unkeyed) {
    if (own(completion) === null && !confirm(completion, null)) chosen.set(`event:${completion.id}`, completion);
  }

  const left = new Map<string, number>();
  for (const h of holders.holdings.values()) left.set(h.pgCno, h.amount);
  let orderLeft = paid;
  const cancels: Cancel[] = [];
  const cancelEvents = [...chosen.values()].sort(byTimeThenId);
  const cancelHolders: Array<string | null> = [];
  for (const n of cancelEvents) {
    const holder = holderOf(holders, n.fact);
    const before = holder === null ? null : left.get(holder)!;
    const amount = amountOf(n) ?? (before === null ? null : fromRemainder(n, before));
    if (holder !== null) {
      left.set(holder, before! - (amount ?? 0));
      holders.holdings.get(holder)!.taken += amount ?? 0;
    }
    orderLeft -= amount ?? 0;
    cancels.push(cancelOf(n, amount, orderLeft));
    cancelHolders.push(holder);
  }
  const cancelKeys = new Map<string, N>();
  for (const n of cancelEvents) if (n.fact.cancelPgCno !== null) cancelKeys.set(n.fact.cancelPgCno, n);
  return { cancels, cancelEvents, cancelHolders, cancelKeys, unkeyedRefunds: unkeyed.length };
}

/** The record's cancel of a notification: its amount, and what the order had left after it. */
export function cancelOf(n: N, amount: number | null, remainingAfter: number): Cancel {
  return { cancelPgCno: n.fact.cancelPgCno, pgCno: n.fact.pgCno, amount, remainingAfter, eventId: n.id, at: n.fact.at };
}

/** Whether a payment's cancels took all of it. */
export const cancelledInFull = ({ amount, taken }: Holding): boolean => amount > 0 && taken >= amount;

/** A refund completed (50) without an amount refunded what its payment had left; a change (20) without one cancelled down to the remainder it states. */
function fromRemainder(n: N, before: number): number | null {
  const amount = n.fact.notiType === '50' ? before : n.fact.remainAmount === null ? 0 : before - n.fact.remainAmount;
  return amount > 0 ? amount : null;
}

