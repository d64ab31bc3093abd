import type { CancellationFact, ConflictFact, ExpectationFact, GatewayListingFact, GatewaySettlementFact, NotificationFact, RefusalFact } from './ledger-facts';
import { byTimeThenId } from './ledger-time';
import { assertExactSums, sumOf } from './minor-units';
import { cancelledInFull, cancelsOf, holdingsOf, type CancelSources, type Holding } from './order-cancels';
import { failedRefunds } from './failed-refunds';
import type { CancellationRequested, Cancel, Deposit, Escrow, Payment, RefundFailed } from './order-record';
import { currentExpectation, type OrderState, type Timed } from './order-state';

/** The record's figures and lists, before discrepancies and status. */
export interface OrderFigures extends CancelSources {
  expectation: Timed<ExpectationFact> | null;
  /** Every notification of the order, by the gateway's time then id. */
  notifications: Array<Timed<NotificationFact>>;
  /** Conflicting redeliveries and refused notifications of the order, as stored. */
  conflicts: Array<Timed<ConflictFact>>;
  refusals: Array<Timed<RefusalFact>>;
  /** What the gateway's imported transaction lists say about the order, by import time then id. */
  listings: Array<Timed<GatewayListingFact>>;
  /** What the gateway's imported settlement statements say about the order, by import time then id. */
  settlements: Array<Timed<GatewaySettlementFact>>;
  payments: Payment[];
  cancels: Cancel[];
  deposits: Deposit[];
  refundsFailed: RefundFailed[];
  /** By pgCno, in the order they were first paid. */
  holdings: ReadonlyMap<string, Holding>;
  /** A basket's productPgCno → the pgCno of the payment whose basket lists it. */
  products: ReadonlyMap<string, string>;
  escrow: Escrow | null;
  cancellationsRequested: CancellationRequested[];
  events: string[];
  approved: number;
  cancelled: number;
  deposited: number;
  remaining: number;
  /** What the cancels that name none of the order's payments took (their amounts, an unknown one as 0). */
  unheldCancelled: number;
  /** The notifications of `payments` and `deposits`, by time then id: the conditions about payments read them. */
  paid: N[];
  /**
   * Every notification of the order came from this receiver's own simulator (each with its mark),
   * and so did every conflicting redelivery, and none was refused: the record says so. One
   * notification without the mark makes the order real for good, since a real payment must never
   * pass for made-up money.
   */
  simulated: boolean;
  /** Event 51s (refund transfers that failed), whatever their resCd. */
  transferFailures: number;
  /** The sum of the magnitudes of the moving notifications' amounts, which `assertExactSums` bounds. */
  amountBound: number;
}

type N = Timed<NotificationFact>;

/**
 * The gateway reports a failure in `resCd` (event 51 alone carries the bank's failure code there
 * and is read as a failure by its type): a notification that did not succeed moves no money.
 * It is still listed in `events`.
 */
export const succeeded = (n: N): boolean => n.fact.resCd === '0000';

const PAYMENT_TYPES = new Set(['10', '70']);
/** The gateway's payMethodTypeCode of a card payment. */
const CARD_CODE = '11';
/** Event 40's status for a deposit into an escrow account. */
export const ESCROW_DEPOSIT = 'ES04';

export function orderFigures(state: OrderState): OrderFigures {
  const notifications = [...state.notifications.values()].sort(byTimeThenId);
  const moving = notifications.filter(succeeded);
  const amountBound = assertExactSums(moving.flatMap(amountsOf));

  const paymentEvents = firstPer(moving.filter((n) => PAYMENT_TYPES.has(n.fact.notiType)), (n) => n.fact.pgCno);
  const depositCancels = firstPer(moving.filter((n) => n.fact.notiType === '31'), (n) => n.fact.pgCno);
  const cancelledDeposits = new Set(depositCancels.map((n) => n.fact.pgCno));
  const cancelledAt = new Map(depositCancels.map((n) => [n.fact.pgCno, n.fact.at]));
  const depositEvents = firstPer(depositsOf(moving), (n) => n.fact.pgCno);
  const deposits = depositEvents.map((n): Deposit => {
    const at = cancelledAt.get(n.fact.pgCno);
    return { pgCno: n.fact.pgCno, amount: n.fact.amount, cancelled: at !== undefined, ...(at !== undefined && { cancelledAt: at }), eventId: n.id, at: n.fact.at };
  });
  const approved = sumOf(paymentEvents.map((n) => n.fact.amount));
  const deposited = sumOf(deposits.filter((d) => !d.cancelled).map((d) => d.amount));
  const holdings = holdingsOf(paymentEvents, depositEvents, cancelledDeposits);
  const products = new Map<string, string>();
  for (const n of [...paymentEvents, ...depositEvents]) for (const product of n.fact.productPgCnos ?? []) if (!products.has(product)) products.set(product, n.fact.pgCno);
  const sources = cancelsOf(moving, { holdings, products }, deposits, approved + deposited);
  const { cancels, cancelHolders } = sources;
  const cancelled = sumOf(cancels.map((c) => c.amount));
  // Every event 51 (its resCd is the bank's failure code), each at its own time with the amount of the refund it failed: the day's money lists them.
  const refundsFailed = failedRefunds(notifications, moving, cancels);
  const paidIds = new Set([...paymentEvents, ...depositEvents]);
  const payments = paymentEvents.map((n): Payment => {
    // A UnionPay form that names no pay_type is still a card payment: UnionPay is a card scheme.
    const method = n.fact.payMethod ?? (n.fact.notiType === '70' ? CARD_CODE : undefined);
    return { pgCno: n.fact.pgCno, amount: n.fact.amount, cancelled: cancelledInFull(holdings.get(n.fact.pgCno)!), ...(method !== undefined && { method }), eventId: n.id, at: n.fact.at };
  });

  const escrows = moving.filter((n) => n.fact.notiType === '40');
  const latestEscrow = escrows[escrows.length - 1];
  return {
    expectation: currentExpectation(state),
    notifications,
    conflicts: [...state.conflicts.values()].sort(byTimeThenId),
    refusals: [...state.refusals.values()].sort(byTimeThenId),
    listings: [...state.listings.values()].sort(byTimeThenId),
    settlements: [...state.settlements.values()].sort(byTimeThenId),
    payments,
    ...sources,
    deposits,
    refundsFailed,
    holdings,
    products,
    escrow: latestEscrow ? escrowOf(latestEscrow) : null,
    cancellationsRequested: cancellationsRequested(state),
    events: notifications.map((n) => n.id),
    approved,
    cancelled,
    deposited,
    remaining: approved + deposited - cancelled,
    unheldCancelled: sumOf(cancels.filter((_, i) => cancelHolders[i] === null).map((c) => c.amount)),
    paid: moving.filter((n) => paidIds.has(n)),
    simulated: notifications.length > 0 && notifications.every((n) => n.fact.simulator === true)
      && state.refusals.size === 0 && [...state.conflicts.values()].every((c) => c.fact.simulator === true),
    transferFailures: notifications.filter((n) => n.fact.notiType === '51').length,
    amountBound,
  };
}

/** The order's escrow status as an event 40 reports it. */
export const escrowOf = (n: N): Escrow => ({ pgCno: n.fact.pgCno, statusCode: n.fact.statusCode, eventId: n.id, at: n.fact.at });

/** The amounts of a notification that its order's sums may add. */
export const amountsOf = (n: N): Array<number | null> => [n.fact.amount, n.fact.cancelAmount, n.fact.remainAmount];

/**
 * Events 30, and the escrow deposits some malls get only as an event 40 (ES04): one counts as
 * the deposit when no 30 reports its pgCno and no approval pays it (it is then a status of that
 * deposit or payment, not more money).
 */
function depositsOf(moving: N[]): N[] {
  const reported = new Set<string>();
  const escrowDeposits: N[] = [];
  for (const n of moving) {
    if (n.fact.notiType === '30' || PAYMENT_TYPES.has(n.fact.notiType)) reported.add(n.fact.pgCno);
    else if (n.fact.notiType === '40' && n.fact.statusCode === ESCROW_DEPOSIT) escrowDeposits.push(n);
  }
  if (escrowDeposits.length === 0) return moving.filter((n) => n.fact.notiType === '30');
  return moving.filter((n) => n.fact.notiType === '30' || (escrowDeposits.includes(n) && !reported.has(n.fact.pgCno)));
}

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
