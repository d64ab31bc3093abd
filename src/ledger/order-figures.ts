import type { CancellationFact, ConflictFact, ExpectationFact, NotificationFact, RefusalFact } from './ledger-facts';
import { byTimeThenId } from './ledger-time';
import { sumOf } from './minor-units';
import type { CancellationRequested, Cancel, Deposit, Escrow, Payment } from './order-record';
import { currentExpectation, type OrderState, type Timed } from './order-state';

/** The record's figures and lists, before discrepancies and status (SPEC 7.2). */
export interface OrderFigures {
  expectation: Timed<ExpectationFact> | null;
  /** Every notification of the order, by the gateway's time then id. */
  notifications: Array<Timed<NotificationFact>>;
  /** Conflicting redeliveries and refused notifications of the order, as stored. */
  conflicts: Array<Timed<ConflictFact>>;
  refusals: Array<Timed<RefusalFact>>;
  payments: Payment[];
  cancels: Cancel[];
  deposits: Deposit[];
  escrow: Escrow | null;
  cancellationsRequested: CancellationRequested[];
  events: string[];
  approved: number;
  cancelled: number;
  deposited: number;
  remaining: number;
}

/**
 * The gateway reports a failure in `resCd` (event 51 alone carries the bank's failure code there
 * and is read as a failure by its type): a notification that did not succeed moves no money.
 * It is still listed in `events`.
 */
export const succeeded = (n: Timed<NotificationFact>): boolean => n.fact.resCd === '0000';

const PAYMENT_TYPES = new Set(['10', '70']);
const CANCEL_TYPES = new Set(['20', '50']);

export function orderFigures(state: OrderState): OrderFigures {
  const notifications = [...state.notifications.values()].sort(byTimeThenId);
  const moving = notifications.filter(succeeded);

  const payments = firstPer(moving.filter((n) => PAYMENT_TYPES.has(n.fact.notiType)), (n) => n.fact.pgCno).map(
    (n): Payment => ({ pgCno: n.fact.pgCno, amount: n.fact.amount, eventId: n.id, at: n.fact.at }),
  );
  const cancelledDeposits = new Set(moving.filter((n) => n.fact.notiType === '31').map((n) => n.fact.pgCno));
  const deposits = firstPer(moving.filter((n) => n.fact.notiType === '30'), (n) => n.fact.pgCno).map(
    (n): Deposit => ({ pgCno: n.fact.pgCno, amount: n.fact.amount, cancelled: cancelledDeposits.has(n.fact.pgCno), eventId: n.id, at: n.fact.at }),
  );
  const approved = sumOf(payments.map((p) => p.amount));
  const deposited = sumOf(deposits.filter((d) => !d.cancelled).map((d) => d.amount));
  const cancels = cancelsOf(moving, approved + deposited);
  const cancelled = sumOf(cancels.map((c) => c.amount));

  const escrows = moving.filter((n) => n.fact.notiType === '40');
  const latestEscrow = escrows[escrows.length - 1];
  return {
    expectation: currentExpectation(state),
    notifications,
    conflicts: [...state.conflicts.values()].sort(byTimeThenId),
    refusals: [...state.refusals.values()].sort(byTimeThenId),
    payments,
    cancels,
    deposits,
    escrow: latestEscrow ? { pgCno: latestEscrow.fact.pgCno, statusCode: latestEscrow.fact.statusCode, eventId: latestEscrow.id, at: latestEscrow.fact.at } : null,
    cancellationsRequested: cancellationsRequested(state),
    events: notifications.map((n) => n.id),
    approved,
    cancelled,
    deposited,
    remaining: approved + deposited - cancelled,
  };
}

/**
 * One cancel per `cancelPgCno` across events 20 and 50: a refund the gateway reports as a change
 * and then as completed is one refund. The event 20 describes it (it carries cancelAmount), the
 * 50 only when no 20 came. A 50 without a cancelPgCno confirms the earliest event-20 cancel of the
 * same payment and amount that no other 50 confirmed; when there is none it is a refund of its own.
 */
function cancelsOf(moving: Array<Timed<NotificationFact>>, paid: number): Cancel[] {
  const chosen = new Map<string, Timed<NotificationFact>>();
  const unkeyed: Array<Timed<NotificationFact>> = [];
  for (const n of moving) {
    if (!CANCEL_TYPES.has(n.fact.notiType)) continue;
    const key = n.fact.cancelPgCno;
    if (key === null) {
      if (n.fact.notiType === '50') unkeyed.push(n);
      else chosen.set(`event:${n.id}`, n);
      continue;
    }
    const current = chosen.get(key);
    if (current === undefined || (current.fact.notiType === '50' && n.fact.notiType === '20')) chosen.set(key, n);
  }
  const confirmed = new Set<string>();
  for (const completion of unkeyed) {
    const match = [...chosen.entries()]
        .filter(([key, n]) => n.fact.notiType === '20' && !confirmed.has(key) && n.fact.pgCno === completion.fact.pgCno && cancelAmountOf(n) === cancelAmountOf(completion))
      .sort(([, a], [, b]) => byTimeThenId(a, b))[0];
    if (match) confirmed.add(match[0]);
    else chosen.set(`event:${completion.id}`, completion);
  }
  let left = paid;
  return [...chosen.values()].sort(byTimeThenId).map((n): Cancel => {
    const amount = cancelAmountOf(n);
    left -= amount ?? 0;
    return { cancelPgCno: n.fact.cancelPgCno, pgCno: n.fact.pgCno, amount, remainingAfter: left, eventId: n.id, at: n.fact.at };
  });
}

const cancelAmountOf = (n: Timed<NotificationFact>): number | null => n.fact.cancelAmount ?? n.fact.amount;

/** Each command once, at its latest state, in the order they were first requested. */
function cancellationsRequested(state: OrderState): CancellationRequested[] {
  const byCommand = new Map<string, { first: number; latest: Timed<CancellationFact> }>();
  for (const entry of [...state.cancellations.values()].sort(byTimeThenId)) {
    const id = entry.fact.shopTransactionId;
    const current = byCommand.get(id);
    byCommand.set(id, { first: current?.first ?? entry.ms, latest: entry });
  }
  return [...byCommand.entries()]
    .sort(([a, x], [b, y]) => x.first - y.first || (a < b ? -1 : a > b ? 1 : 0))
    .map(([shopTransactionId, { latest }]) => ({ shopTransactionId, pgCno: latest.fact.pgCno, state: latest.fact.state }));
}

/** The first by time of each group, in that order: a second approval of one pgCno (another status) is the same payment. */
function firstPer<T>(sorted: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return sorted.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
