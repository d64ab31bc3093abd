import fc from 'fast-check';
import type { OrderRecord, OrderStatus } from '../../src/ledger/fold/order-record';
import type { SummaryDay } from '../../src/ledger/summary/summary-days';
import type { SummaryStores } from './summary-contract';
import { at, notify, type OrderRef } from './summary-kit';

const DEFAULT = 'KRW';
const RANGE = { from: '2026-11-20', to: '2026-11-27' };
const DAYS = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'];
const dayOf = (iso: string) => new Date(Date.parse(iso) + 9 * 3600_000).toISOString().slice(0, 10);

/** The own times a record shows (its events', its discrepancies'); its `updatedAt` when it shows none (an expectation alone). */
function timesOf(r: OrderRecord): string[] {
  const times = [
    ...r.payments.map((p) => p.at), ...r.cancels.map((c) => c.at), ...r.deposits.flatMap((d) => [d.at, ...(d.cancelledAt ? [d.cancelledAt] : [])]),
    ...(r.refundsFailed ?? []).map((f) => f.at), ...r.discrepancies.flatMap((d) => [d.openedAt, ...(d.resolvedAt ? [d.resolvedAt] : [])]),
  ];
  return times.length > 0 ? times : [r.updatedAt];
}

/**
 * One order's statuses through its records as written, each with the day it counts from: the first
 * from the day of the earliest time it shows, a change from the day of the latest time it (or the
 * record before it) shows, but never before the day the status it leaves counted from.
 */
class StatusHistory {
  readonly entries: Array<{ status: OrderStatus; day: string }> = [];
  private last: OrderRecord | null = null;

  see(record: OrderRecord): void {
    const previous = this.last;
    this.last = record;
    if (previous === null) {
      this.entries.push({ status: record.status, day: timesOf(record).map(dayOf).sort()[0]! });
      return;
    }
    if (previous.status === record.status) return;
    const own = [...timesOf(record), ...timesOf(previous)].map(dayOf).sort().at(-1)!;
    const since = this.entries.at(-1)!.day;
    this.entries.push({ status: record.status, day: own > since ? own : since });
  }

  /** The status the order is in at the end of `day`, if it is counted by then. */
  at(day: string): OrderStatus | null {
    return this.entries.filter((e) => e.day <= day).at(-1)?.status ?? null;
  }
}

/** Orders by status at each day's end against a count over each order's records, on each database (summary-store.test.ts). */
export function statusHistoryContract(openFresh: () => Promise<SummaryStores>): void {
  let s: SummaryStores;
  beforeEach(async () => {
    s = await openFresh();
  });
  afterEach(async () => s.cleanup());

  const byStatus = async (mallId: string): Promise<Map<string, Partial<Record<OrderStatus, number>>>> => {
    const days: SummaryDay[] = await s.stores.ledger.dailySummary({ ...RANGE, mallId }, DEFAULT);
    return new Map(days.map((d) => [d.date, d.ordersByStatus]));
  };
  const negatives = (counts: Map<string, Partial<Record<OrderStatus, number>>>) =>
    [...counts].flatMap(([day, statuses]) => Object.entries(statuses).filter(([, n]) => n < 0).map(([status, n]) => `${day} ${status} ${n}`));

  test('an order registered today whose payment and cancel are dated yesterday is never a negative count: it counts from today, cancelled', async () => {
    const mallId = 'T0000010';
    const order: OrderRef = { mallId, shopOrderNo: 'ORD-LATE-REGISTERED' };
    await s.stores.ledger.putExpectation(order, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }, at(2 * 1440 + 60).toISOString());
    await s.stores.store.record(notify.paid(order, 'PG-L', 12000, 1440 + 10));
    await s.stores.ledger.caughtUp();
    await s.stores.store.record(notify.cancelled(order, 'PG-L', 'CX-L', 12000, 1440 + 20));
    await s.stores.ledger.caughtUp();
    const counts = await byStatus(mallId);
    expect(negatives(counts)).toEqual([]);
    expect(counts.get('2026-11-23')).toEqual({});
    expect(counts.get('2026-11-24')).toEqual({ cancelled: 1 });
    expect(counts.get('2026-11-27')).toEqual({ cancelled: 1 });
  });

  test('orders by status at each day\'s end equal a count over each order\'s records for random dates and arrival orders, one input per batch; never negative, also after a rebuild from nothing', async () => {
    const minute = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 1439 })).map(([d, m]) => d * 1440 + m);
    const amount = fc.constantFrom(1000, 5000, 12000);
    const orderStory = fc.record({
      // Registered mostly on a later day than the events are dated, and mostly before they arrive: the shape that went negative.
      registeredAt: fc.option(fc.oneof(minute, minute.map((t) => Math.min(t + 2 * 1440, 5 * 1440 - 1))), { nil: undefined }),
      registeredFirst: fc.constantFrom(true, true, false),
      payments: fc.array(fc.record({ t: minute, amount }), { minLength: 1, maxLength: 2 }),
      cancels: fc.array(fc.record({ payment: fc.nat(), t: minute, whole: fc.boolean() }), { maxLength: 2 }),
      deposit: fc.option(fc.record({ t: minute, cancelAt: fc.option(minute, { nil: undefined }) }), { nil: undefined }),
    });
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.array(orderStory, { minLength: 1, maxLength: 4 }), fc.nat(), async (stories, seed) => {
      run += 1;
      const mallId = `S${String(run).padStart(7, '0')}`;
      const inputs: Array<{ order: OrderRef; first?: boolean; send: () => Promise<unknown> }> = [];
      const refs = stories.map((story, i): OrderRef => {
        const order = { mallId, shopOrderNo: `H${run}-${i}` };
        if (story.registeredAt !== undefined) {
          const expected = story.payments[0]!.amount;
          const registeredAt = at(story.registeredAt).toISOString();
          inputs.push({ order, first: story.registeredFirst, send: () => s.stores.ledger.putExpectation(order, { amount: expected, currency: 'KRW', method: 'card', expiresAt: null }, registeredAt) });
        }
        story.payments.forEach((p, n) => inputs.push({ order, send: () => s.stores.store.record(notify.paid(order, `P${run}-${i}-${n}`, p.amount, p.t)) }));
        story.cancels.forEach((c, n) => {
          const k = c.payment % story.payments.length;
          const cancelled = c.whole ? story.payments[k]!.amount : 500;
          inputs.push({ order, send: () => s.stores.store.record(notify.cancelled(order, `P${run}-${i}-${k}`, `C${run}-${i}-${n}`, cancelled, c.t)) });
        });
        if (story.deposit) {
          const d = story.deposit;
          inputs.push({ order, send: () => s.stores.store.record(notify.deposited(order, `V${run}-${i}`, 3000, d.t)) });
          if (d.cancelAt !== undefined) inputs.push({ order, send: () => s.stores.store.record(notify.depositCancelled(order, `V${run}-${i}`, 3000, d.cancelAt!)) });
        }
        return order;
      });
      // Shuffled, but a shop's registration often comes before any notification, whatever their dates.
      const shuffled = inputs.map((input, n) => ({ input, k: input.first === true ? -1 : (n * 7919 + seed) % 101 })).sort((a, b) => a.k - b.k).map(({ input }) => input);
      const histories = new Map(refs.map((o) => [o.shopOrderNo, new StatusHistory()]));
      for (const { order, send } of shuffled) {
        await send();
        await s.stores.ledger.caughtUp();
        const record = await s.stores.ledger.getOrder(order);
        if (record !== null) histories.get(order.shopOrderNo)!.see(record);
      }

      const counts = await byStatus(mallId);
      expect(negatives(counts)).toEqual([]);
      for (const day of DAYS) {
        const expected: Partial<Record<OrderStatus, number>> = {};
        for (const history of histories.values()) {
          const status = history.at(day);
          if (status !== null) expected[status] = (expected[status] ?? 0) + 1;
        }
        expect([day, counts.get(day) ?? {}]).toEqual([day, expected]);
      }
      // From nothing, a rebuild books each order from its record alone: never negative, and every order in its status at the end.
      await s.forgetSummary();
      let after: number | null = null;
      do after = (await s.stores.ledger.rebuildPage(after, 50, at(9000).toISOString())).next;
      while (after !== null);
      const rebuilt = await byStatus(mallId);
      expect(negatives(rebuilt)).toEqual([]);
      const now: Partial<Record<OrderStatus, number>> = {};
      for (const o of refs) {
        const record = await s.stores.ledger.getOrder(o);
        if (record !== null) now[record.status] = (now[record.status] ?? 0) + 1;
      }
      expect(rebuilt.get(RANGE.to)).toEqual(now);
    }), { numRuns: Number(process.env.SUMMARY_RUNS ?? 15) });
  }, 240_000);
}
