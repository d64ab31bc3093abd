import fc from 'fast-check';
import type { Stores } from '../../src/ledger/projector/open-stores';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import type { SummaryDay } from '../../src/ledger/summary/summary-days';
import { at, notifications, notify, storyDay, sumsOverRecords, type OrderRef } from './summary-kit';

export interface SummaryStores {
  stores: Stores;
  /** Empties the summary's tables, as a database migrated from before them has them. */
  forgetSummary(): Promise<void>;
  cleanup(): Promise<void>;
}

const DEFAULT = 'KRW';
const RANGE = { from: '2026-11-20', to: '2026-11-27' };

/** The summary without orders by status, keyed as `sumsOverRecords` keys its days. */
function money(days: readonly SummaryDay[]): Map<string, unknown> {
  return new Map(days
    .filter((d) => [d, d.simulated].some((m) => m.payments.count + m.cancels.count + m.deposits.count + m.depositCancels.count + m.refundsFailed.count > 0)
      || d.discrepancies.opened + d.discrepancies.resolved > 0)
    .map(({ date, mallId, currency, ordersByStatus: _status, ...figures }) => [`${date}|${mallId}|${currency}`, figures]));
}

/** The day's money against the sums over the order records, on each database (summary-store.test.ts). */
export function summaryContract(openFresh: () => Promise<SummaryStores>): void {
  let s: SummaryStores;
  beforeEach(async () => {
    s = await openFresh();
  });
  afterEach(async () => s.cleanup());

  const summary = (mallId: string | null = null) => s.stores.ledger.dailySummary({ ...RANGE, mallId }, DEFAULT);
  const day = async (date: string, mallId: string, currency = DEFAULT) => (await summary(mallId)).find((d) => d.date === date && d.currency === currency);

  test('a payment one second before midnight in Korea books on its day, one at midnight on the next; a cancel two days later books on its own day', async () => {
    const order: OrderRef = { mallId: 'T0000001', shopOrderNo: 'ORD-MIDNIGHT' };
    await s.stores.store.record(notify.paid(order, 'PG-A', 12000, -1 / 60));
    await s.stores.store.record(notify.paid({ ...order, shopOrderNo: 'ORD-AFTER' }, 'PG-B', 30000, 0));
    await s.stores.ledger.caughtUp();
    expect(await day('2026-11-21', 'T0000001')).toMatchObject({ payments: { count: 1, amount: 12000, byMethod: { card: { count: 1, amount: 12000 } } }, net: 12000, ordersByStatus: { paid: 1 } });
    expect(await day('2026-11-22', 'T0000001')).toMatchObject({ payments: { count: 1, amount: 30000 }, net: 30000, ordersByStatus: { paid: 2 } });
    await s.stores.store.record(notify.cancelled(order, 'PG-A', 'CX-A', 12000, 2 * 1440 + 5));
    await s.stores.ledger.caughtUp();
    expect(await day('2026-11-21', 'T0000001')).toMatchObject({ payments: { count: 1, amount: 12000 }, cancels: { count: 0 }, net: 12000, ordersByStatus: { paid: 1 } });
    expect(await day('2026-11-24', 'T0000001')).toMatchObject({ payments: { count: 0 }, cancels: { count: 1, amount: 12000 }, net: -12000, ordersByStatus: { paid: 1, cancelled: 1 } });
    expect(await day('2026-11-23', 'T0000001')).toMatchObject({ ordersByStatus: { paid: 2 } });
  });

  test('a refund reported in both a 20 and a 50 counts once; a deposit cancelled the next day books there; a failed refund is listed and not in the net', async () => {
    const mallId = 'T0000002';
    const card: OrderRef = { mallId, shopOrderNo: 'ORD-CARD' };
    const bank: OrderRef = { mallId, shopOrderNo: 'ORD-BANK' };
    await s.stores.ledger.putExpectation(card, { amount: 5000, currency: 'USD', method: 'card', expiresAt: null }, at(-60).toISOString());
    await s.stores.store.record(notify.paid(card, 'PG-C', 5000, 10));
    await s.stores.store.record(notify.cancelled(card, 'PG-C', 'CX-C', 2000, 20));
    await s.stores.store.record(notify.refunded(card, 'PG-C', 'CX-C', 2000, 25));
    await s.stores.store.record(notify.refundFailed(card, 'PG-C', 2000, 24));
    await s.stores.store.record(notify.deposited(bank, 'PG-V', 45000, 30));
    await s.stores.store.record(notify.depositCancelled(bank, 'PG-V', 45000, 1440 + 30));
    await s.stores.ledger.caughtUp();
    expect(await day('2026-11-22', mallId, 'USD')).toMatchObject({
      payments: { count: 1, amount: 5000, byMethod: { card: { count: 1, amount: 5000 } } }, cancels: { count: 1, amount: 2000 },
      refundsFailed: { count: 1, amount: 2000 }, net: 3000, discrepancies: { opened: 1 },
    });
    expect(await day('2026-11-22', mallId)).toMatchObject({ deposits: { count: 1, amount: 45000 }, depositCancels: { count: 0 }, net: 45000 });
    expect(await day('2026-11-23', mallId)).toMatchObject({ deposits: { count: 0 }, depositCancels: { count: 1, amount: 45000 }, net: -45000 });
  });

  test('a failed refund (51) with no amount of its own counts the refund it follows, and one that follows none is counted as unknown, never as 0, also after a rebuild from nothing', async () => {
    const mallId = 'T0000004';
    const followed: OrderRef = { mallId, shopOrderNo: 'ORD-FOLLOWS' };
    const alone: OrderRef = { mallId, shopOrderNo: 'ORD-ALONE' };
    await s.stores.store.record(notify.paid(followed, 'PG-F', 30000, 10));
    await s.stores.store.record(notify.cancelled(followed, 'PG-F', 'CX-F', 12000, 20));
    await s.stores.store.record(notify.refundFailed(followed, 'PG-F', null, 30));
    await s.stores.store.record(notify.paid(alone, 'PG-A', 5000, 10));
    await s.stores.store.record(notify.refundFailed(alone, 'PG-A', null, 1440 + 30));
    await s.stores.ledger.caughtUp();
    const failed = async () => [(await day('2026-11-22', mallId))?.refundsFailed, (await day('2026-11-23', mallId))?.refundsFailed];
    const expected = [{ count: 1, amount: 12000, unknownCount: 0 }, { count: 1, amount: 0, unknownCount: 1 }];
    expect(await failed()).toEqual(expected);
    expect((await s.stores.ledger.getOrder(followed))?.refundsFailed?.map((r) => r.amount)).toEqual([12000]);
    expect((await s.stores.ledger.getOrder(alone))?.refundsFailed?.map((r) => r.amount)).toEqual([null]);
    await s.forgetSummary();
    await rebuild();
    expect(await failed()).toEqual(expected);
  });

  test('the day page lists an order on every day it has an event: a 50 completing an earlier 20, an escrow 40, a 51, a 31, also after a rebuild that fills the summary from nothing', async () => {
    const mallId = 'T0000003';
    const card: OrderRef = { mallId, shopOrderNo: 'ORD-REFUND' };
    const escrow: OrderRef = { mallId, shopOrderNo: 'ORD-ESCROW' };
    const bank: OrderRef = { mallId, shopOrderNo: 'ORD-BANK' };
    await s.stores.store.record(notify.paid(card, 'PG-R', 30000, 10));
    await s.stores.store.record(notify.cancelled(card, 'PG-R', 'CX-R', 30000, 20));
    await s.stores.store.record(notify.refunded(card, 'PG-R', 'CX-R', 30000, 1440 + 10));
    await s.stores.store.record(notify.refundFailed(card, 'PG-R', 30000, 4 * 1440 + 10));
    await s.stores.store.record(notify.paid(escrow, 'PG-E', 12000, 30));
    await s.stores.store.record(notify.escrow(escrow, 'PG-E', 'ES02', 2 * 1440 + 10));
    await s.stores.store.record(notify.deposited(bank, 'PG-V', 45000, 40));
    await s.stores.store.record(notify.depositCancelled(bank, 'PG-V', 45000, 3 * 1440 + 10));
    await s.stores.ledger.caughtUp();
    const listed = async (day: string) => (await s.stores.ledger.dayOrders(day, mallId, 200)).map((r) => r.shopOrderNo);
    const expected = {
      '2026-11-22': ['ORD-BANK', 'ORD-ESCROW', 'ORD-REFUND'],
      '2026-11-23': ['ORD-REFUND'],
      '2026-11-24': ['ORD-ESCROW'],
      '2026-11-25': ['ORD-BANK'],
      '2026-11-26': ['ORD-REFUND'],
      '2026-11-27': [],
    };
    const days = async () => Object.fromEntries(await Promise.all(Object.keys(expected).map(async (day) => [day, await listed(day)] as const)));
    expect(await days()).toEqual(expected);
    await s.forgetSummary();
    await rebuild();
    expect(await days()).toEqual(expected);
    // Listing a day is no money: the totals are as before.
    expect(await day('2026-11-23', mallId)).toMatchObject({ payments: { count: 0 }, cancels: { count: 0 }, net: 0 });
  });

  test('the summary equals the sums over the order records for random histories, through batches, a rebuild and a rebuild that fills it from nothing', async () => {
    const minuteNear = fc.tuple(fc.constantFrom(0, 1440, 2880), fc.integer({ min: -20, max: 20 })).map(([d, m]) => d + m);
    const amount = fc.constantFrom(1000, 2500, 12000, 30000);
    const orderStory = fc.record({
      expected: fc.option(fc.record({ currency: fc.constantFrom('KRW', 'USD'), method: fc.constantFrom('card' as const, 'vaccount' as const, 'wallet' as const) }), { nil: undefined }),
      payments: fc.array(fc.record({ t: minuteNear, amount }), { maxLength: 2 }),
      cancels: fc.array(fc.record({ payment: fc.nat(), delay: fc.constantFrom(0, 3, 1440, 2000), amount, alsoRefund: fc.boolean(), refundAfter: fc.constantFrom(1, 1440) }), { maxLength: 2 }),
      deposit: fc.option(fc.record({ t: minuteNear, amount, cancelAfter: fc.option(fc.constantFrom(2, 1440), { nil: undefined }) }), { nil: undefined }),
      failed: fc.option(fc.record({ t: minuteNear, amount: fc.option(amount, { nil: null }) }), { nil: undefined }),
      escrowAt: fc.option(fc.constantFrom(5, 1440), { nil: undefined }),
      // The gateway's method code (null: none sent), and whether the simulator sent every notification of it.
      code: fc.constantFrom<string | null>(null, '11', '21', '60', '99'),
      simulated: fc.boolean(),
    });
    const history = fc.record({
      orders: fc.array(fc.tuple(fc.constantFrom(0, 1), orderStory), { minLength: 1, maxLength: 5 }),
      rounds: fc.integer({ min: 1, max: 3 }),
      seed: fc.nat(),
    });
    let run = 0;
    await fc.assert(fc.asyncProperty(history, async ({ orders, rounds, seed }) => {
      run += 1;
      const malls = [`M${String(run).padStart(4, '0')}A`, `M${String(run).padStart(4, '0')}B`];
      const inputs: Array<() => Promise<unknown>> = [];
      const refs: OrderRef[] = [];
      // The orders with a notification on each day, as the inputs say (the day page must list them).
      const eventDays = new Map<string, Set<string>>();
      const sent = (o: OrderRef, t: number) => {
        const day = storyDay(t);
        eventDays.set(day, (eventDays.get(day) ?? new Set()).add(`${o.mallId} ${o.shopOrderNo}`));
      };
      orders.forEach(([mall, story], i) => {
        const o: OrderRef = { mallId: malls[mall]!, shopOrderNo: `R${run}-${i}` };
        refs.push(o);
        const send = notifications(story.simulated);
        if (story.expected) {
          const total = story.payments.reduce((sum, p) => sum + p.amount, 0) || 1000;
          const expectation = { amount: total, currency: story.expected.currency, method: story.expected.method, expiresAt: null };
          // First, so its currency is the order's before any payment (a later change is refused).
          inputs.unshift(() => s.stores.ledger.putExpectation(o, expectation, at(-100).toISOString()));
        }
        story.payments.forEach((p, n) => {
          sent(o, p.t);
          inputs.push(() => s.stores.store.record(send.paid(o, `P${run}-${i}-${n}`, p.amount, p.t, story.code)));
        });
        story.cancels.forEach((c, n) => {
          if (story.payments.length === 0) return;
          const k = c.payment % story.payments.length;
          const t = story.payments[k]!.t + c.delay;
          const pgCno = `P${run}-${i}-${k}`;
          sent(o, t);
          inputs.push(() => s.stores.store.record(send.cancelled(o, pgCno, `C${run}-${i}-${n}`, c.amount, t)));
          if (c.alsoRefund) {
            sent(o, t + c.refundAfter);
            inputs.push(() => s.stores.store.record(send.refunded(o, pgCno, `C${run}-${i}-${n}`, c.amount, t + c.refundAfter)));
          }
        });
        if (story.deposit) {
          const d = story.deposit;
          sent(o, d.t);
          inputs.push(() => s.stores.store.record(send.deposited(o, `V${run}-${i}`, d.amount, d.t)));
          if (d.cancelAfter !== undefined) {
            sent(o, d.t + d.cancelAfter);
            inputs.push(() => s.stores.store.record(send.depositCancelled(o, `V${run}-${i}`, d.amount, d.t + d.cancelAfter!)));
          }
        }
        if (story.failed) {
          sent(o, story.failed.t);
          inputs.push(() => s.stores.store.record(send.refundFailed(o, `P${run}-${i}-0`, story.failed!.amount, story.failed!.t)));
        }
        if (story.escrowAt !== undefined && story.payments.length > 0) {
          const t = story.payments[0]!.t + story.escrowAt;
          sent(o, t);
          inputs.push(() => s.stores.store.record(send.escrow(o, `P${run}-${i}-0`, 'ES02', t)));
        }
      });
      // Expectations first; the notifications in a shuffled order, in rounds the projector applies one after another.
      const expectations = inputs.filter((_, n) => n < orders.filter(([, st]) => st.expected).length);
      const rest = inputs.slice(expectations.length).map((f, n) => ({ f, k: (n * 7919 + seed) % 101 })).sort((a, b) => a.k - b.k).map(({ f }) => f);
      for (const input of expectations) await input();
      for (let r = 0; r < rounds; r += 1) {
        for (const input of rest.filter((_, n) => n % rounds === r)) await input();
        await s.stores.ledger.caughtUp();
      }
      const open = (await recordsOf(refs)).flatMap((rec) => rec.discrepancies.filter((d) => d.resolvedAt === null));
      if (open.length > 0) await s.stores.ledger.resolveDiscrepancy(open[seed % open.length]!.id, { note: 'checked', by: 'kim', at: at(4000).toISOString(), actor: 'kim' });
      await s.stores.ledger.caughtUp();

      const check = async () => {
        const records = await recordsOf(refs);
        // The day page: every order with an event that day, and besides them only orders with a discrepancy opened or resolved then.
        const dayOf = (iso: string) => new Date(Date.parse(iso) + 9 * 3600_000).toISOString().slice(0, 10);
        for (const day of [...eventDays.keys(), RANGE.to]) {
          const listed = new Set((await s.stores.ledger.dayOrders(day, null, 1000)).filter((r) => malls.includes(r.mallId)).map((r) => `${r.mallId} ${r.shopOrderNo}`));
          const onlyDiscrepancies = records.filter((r) => r.discrepancies.some((d) => dayOf(d.openedAt) === day || (d.resolvedAt !== null && dayOf(d.resolvedAt) === day)));
          const allowed = new Set([...eventDays.get(day) ?? [], ...onlyDiscrepancies.map((r) => `${r.mallId} ${r.shopOrderNo}`)]);
          expect([...eventDays.get(day) ?? []].filter((o) => !listed.has(o))).toEqual([]);
          expect([...listed].filter((o) => !allowed.has(o))).toEqual([]);
        }
        for (const mallId of malls) {
          const days = await summary(mallId);
          const expected = new Map([...sumsOverRecords(records.filter((r) => r.mallId === mallId), DEFAULT)]);
          expect(money(days)).toEqual(expected);
          // At the range's last day every order is in the status its record has now.
          const last = days.filter((d) => d.date === RANGE.to);
          for (const currency of new Set(records.filter((r) => r.mallId === mallId).map((r) => r.expected?.currency ?? DEFAULT))) {
            const counts: Record<string, number> = {};
            for (const r of records) if (r.mallId === mallId && (r.expected?.currency ?? DEFAULT) === currency) counts[r.status] = (counts[r.status] ?? 0) + 1;
            expect(last.find((d) => d.currency === currency)?.ordersByStatus).toEqual(counts);
          }
        }
      };
      await check();
      await rebuild();
      await check();
      await s.forgetSummary();
      await rebuild();
      await check();
    }), { numRuns: Number(process.env.SUMMARY_RUNS ?? 12) });
  }, 240_000);

  async function recordsOf(refs: readonly OrderRef[]): Promise<OrderRecord[]> {
    const records = await Promise.all(refs.map((o) => s.stores.ledger.getOrder(o)));
    return records.filter((r): r is OrderRecord => r !== null);
  }

  async function rebuild(): Promise<void> {
    let after: number | null = null;
    do after = (await s.stores.ledger.rebuildPage(after, 50, at(5000).toISOString())).next;
    while (after !== null);
  }
}
