import type { OrderRecord, OrderStatus } from '../../src/ledger/fold/order-record';
import type { SummaryDay } from '../../src/ledger/summary/summary-days';
import type { SummaryStores } from './summary-contract';
import { at, notifications, notify, sumsOverRecords, type OrderRef } from './summary-kit';

const DEFAULT = 'KRW';
const RANGE = { from: '2026-11-20', to: '2026-11-27' };

/** The summary's money without orders by status, keyed as `sumsOverRecords` keys its days. */
export function money(days: readonly SummaryDay[]): Map<string, unknown> {
  return new Map(days
    .filter((d) => [d, d.simulated].some((m) => m.payments.count + m.cancels.count + m.deposits.count + m.depositCancels.count + m.refundsFailed.count > 0)
      || d.discrepancies.opened + d.discrepancies.resolved > 0)
    .map(({ date, mallId, currency, ordersByStatus: _status, ...figures }) => [`${date}|${mallId}|${currency}`, figures]));
}

/**
 * The totals move by each written record's bookings less those of the record it replaces: after
 * every step of each story they are the bookings summed over the records directly, every order is
 * in its record's status at the range's end, a rebuild changes nothing, and a rebuild of a store
 * whose summary was never filled fills it to the same (summary-store.test.ts).
 */
export function deltaContract(openFresh: () => Promise<SummaryStores>): void {
  let s: SummaryStores;
  beforeEach(async () => {
    s = await openFresh();
  });
  afterEach(async () => s.cleanup());

  const summary = (mallId: string) => s.stores.ledger.dailySummary({ ...RANGE, mallId }, DEFAULT);
  const rebuild = async () => {
    let after: number | null = null;
    do after = (await s.stores.ledger.rebuildPage(after, 50, at(5000).toISOString())).next;
    while (after !== null);
  };

  /** The summary of the mall against its orders' records, as the projector left it, after a rebuild, and after a rebuild from nothing. */
  async function agrees(mallId: string, refs: readonly OrderRef[]): Promise<void> {
    await s.stores.ledger.caughtUp();
    const records = (await Promise.all(refs.map((o) => s.stores.ledger.getOrder(o)))).filter((r): r is OrderRecord => r !== null);
    const statuses: Partial<Record<string, Partial<Record<OrderStatus, number>>>> = {};
    for (const r of records) {
      const byStatus = (statuses[r.expected?.currency ?? DEFAULT] ??= {});
      byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    }
    const check = async (days: SummaryDay[]) => {
      expect(money(days)).toEqual(sumsOverRecords(records, DEFAULT));
      expect(Object.fromEntries(days.filter((d) => d.date === RANGE.to).map((d) => [d.currency, d.ordersByStatus]))).toEqual(statuses);
    };
    const live = await summary(mallId);
    await check(live);
    await rebuild();
    expect(await summary(mallId)).toEqual(live);
    await s.forgetSummary();
    await rebuild();
    await check(await summary(mallId));
  }

  test('several inputs of one order applied in one batch move the totals as the record they make', async () => {
    const mallId = 'T0000021';
    const order: OrderRef = { mallId, shopOrderNo: 'ORD-BATCH' };
    // Recorded together: one group commit, read by the projector as one batch.
    await Promise.all([
      s.stores.store.record(notify.paid(order, 'PG-B', 30000, 10)),
      s.stores.store.record(notify.cancelled(order, 'PG-B', 'CX-B1', 5000, 1440 + 10)),
      s.stores.store.record(notify.refunded(order, 'PG-B', 'CX-B1', 5000, 1440 + 20)),
      s.stores.store.record(notify.cancelled(order, 'PG-B', 'CX-B2', 25000, 2 * 1440 + 10)),
    ]);
    await agrees(mallId, [order]);
    expect((await summary(mallId)).find((d) => d.date === '2026-11-24')).toMatchObject({ cancels: { count: 1, amount: 25000 }, ordersByStatus: { cancelled: 1 } });
  });

  test('an order moving back and forth (paid, a second payment opening a discrepancy, its resolution, a cancel) keeps the totals its records book at every step', async () => {
    const mallId = 'T0000022';
    const order: OrderRef = { mallId, shopOrderNo: 'ORD-BACK' };
    const other: OrderRef = { mallId, shopOrderNo: 'ORD-STILL' };
    await s.stores.store.record(notify.paid(other, 'PG-O', 1000, 5));
    await s.stores.store.record(notify.paid(order, 'PG-1', 12000, 10));
    await agrees(mallId, [order, other]);
    await s.stores.store.record(notify.paid(order, 'PG-2', 12000, 1440 + 10));
    await agrees(mallId, [order, other]);
    const opened = (await s.stores.ledger.getOrder(order))!.discrepancies.filter((d) => d.resolvedAt === null);
    expect(opened.length).toBeGreaterThan(0);
    for (const d of opened) await s.stores.ledger.resolveDiscrepancy(d.id, { note: 'refunding the second', by: 'kim', at: at(2 * 1440 + 10).toISOString(), actor: 'kim' });
    await agrees(mallId, [order, other]);
    await s.stores.store.record(notify.cancelled(order, 'PG-2', 'CX-2', 12000, 2 * 1440 + 30));
    await agrees(mallId, [order, other]);
    const record = (await s.stores.ledger.getOrder(order))!;
    expect(record.discrepancies.every((d) => d.resolvedAt !== null)).toBe(true);
    expect((await summary(mallId)).find((d) => d.date === '2026-11-24')?.discrepancies.resolved).toBeGreaterThan(0);
  });

  test('a simulated order made real by a real notification moves its money whole, in the batch that makes it real', async () => {
    const mallId = 'T0000023';
    const made: OrderRef = { mallId, shopOrderNo: 'ORD-SIM' };
    const simulator = notifications(true);
    await s.stores.store.record(simulator.paid(made, 'PG-S', 13200, 11));
    await s.stores.store.record(simulator.refundFailed(made, 'PG-S', null, 30));
    await agrees(mallId, [made]);
    expect((await summary(mallId)).find((d) => d.date === '2026-11-22')).toMatchObject({ payments: { count: 0 }, simulated: { payments: { count: 1, amount: 13200 } } });
    await s.stores.store.record(notify.cancelled(made, 'PG-S', 'CX-S', 1200, 40));
    await agrees(mallId, [made]);
    expect((await summary(mallId)).find((d) => d.date === '2026-11-22')).toMatchObject({ payments: { count: 1, amount: 13200 }, refundsFailed: { unknownCount: 1 }, simulated: { payments: { count: 0 }, refundsFailed: { count: 0 } } });
  });

  test('a currency set late by an expectation moves the order whole from the default currency into its own, with its status', async () => {
    const mallId = 'T0000024';
    const order: OrderRef = { mallId, shopOrderNo: 'ORD-LATE-CURRENCY' };
    await s.stores.store.record(notify.paid(order, 'PG-U', 5000, 10));
    await agrees(mallId, [order]);
    await s.stores.ledger.putExpectation(order, { amount: 5000, currency: 'USD', method: 'card', expiresAt: null }, at(60).toISOString());
    await agrees(mallId, [order]);
    const days = await summary(mallId);
    expect(days.find((d) => d.date === '2026-11-22' && d.currency === 'USD')).toMatchObject({ payments: { count: 1, amount: 5000 }, ordersByStatus: { paid: 1 } });
    // Nothing left under the default currency: no payment, no order in a status, on any day.
    const left = days.filter((d) => d.currency === DEFAULT);
    expect(left.map((d) => [d.payments.count, d.ordersByStatus])).toEqual(left.map(() => [0, {}]));
  });
}
