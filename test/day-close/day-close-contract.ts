import type { Stores } from '../../src/ledger/projector/open-stores';
import type { SummaryDay } from '../../src/ledger/summary/summary-days';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { notify, sumsOverRecords, type OrderRef } from '../daily-summary/summary-kit';

export interface CloseStores {
  /** Two replicas on PostgreSQL (each with its projector), one store twice on SQLite. */
  replicas: [Stores, Stores];
  cleanup(): Promise<void>;
}

const DEFAULT = 'KRW';
const DAY = '2026-11-22';
const MALL = 'T0000001';
const who = (actor: string) => ({ at: new Date().toISOString(), actor });
const order = (n: number): OrderRef => ({ mallId: MALL, shopOrderNo: `ORD-CLOSE-${n}` });

/** The live sums of the day, by the test's own arithmetic over the records that have an event on it. */
async function recordsNet(stores: Stores, day: string): Promise<number> {
  const records = await stores.ledger.dayOrders(day, MALL, 10_000);
  return sumsOverRecords(records, DEFAULT).get(`${day}|${MALL}|${DEFAULT}`)?.net ?? 0;
}

const lineOf = (days: readonly SummaryDay[], date: string) => days.find((d) => d.date === date && d.mallId === MALL && d.currency === DEFAULT);

/** Closing a KST day and what arrives after it, on each database (day-close.test.ts). */
export function dayCloseContract(openFresh: () => Promise<CloseStores>): void {
  let s: CloseStores;
  beforeEach(async () => {
    s = await openFresh();
  });
  afterEach(async () => s.cleanup());

  const summary = (stores: Stores, from: string, to: string, mallId: string | null = MALL) => stores.ledger.dailySummary({ from, to, mallId }, DEFAULT);

  test('a payment for a closed day arrives later: the closed day keeps its figures and says "adjusted later", the day it arrived books it as an adjustment naming the closed day; reopening takes it back', async () => {
    const [a] = s.replicas;
    await a.store.record(notify.paid(order(1), 'PG-1', 12000, 60));
    await a.store.record(notify.cancelled(order(1), 'PG-1', 'CX-1', 2000, 120));
    const closed = await a.ledger.closeDay(DAY, MALL, who('kim (console)'), DEFAULT);
    expect(closed).toMatchObject({ outcome: 'closed', close: { day: DAY, mallId: MALL, closedBy: 'kim (console)' } });
    const before = lineOf(await summary(a, DAY, DAY), DAY)!;
    expect(before).toMatchObject({ payments: { count: 1, amount: 12000 }, cancels: { count: 1, amount: 2000 }, net: 10000, closed: { by: 'kim (console)', everyMall: false } });

    // Late: a payment and a deposit whose own time is on the closed day.
    await a.store.record(notify.paid(order(2), 'PG-2', 30000, 600));
    await a.store.record(notify.deposited(order(3), 'PG-3', 5000, 700));
    await a.ledger.caughtUp();
    const today = kstDay(new Date().toISOString());
    const days = await summary(a, DAY, today);
    const closedLine = lineOf(days, DAY)!;
    expect(closedLine).toMatchObject({ payments: { count: 1, amount: 12000 }, net: 10000, adjustedLater: [{ on: today, net: 35000 }] });
    expect(lineOf(days, today)).toMatchObject({
      adjustments: [{ adjusts: DAY, payments: { count: 1, amount: 30000 }, deposits: { count: 1, amount: 5000 }, net: 35000 }], netWithAdjustments: 35000,
    });
    // Kept figures and adjustments are the live sums, split once: nothing counted twice, nothing lost.
    expect(closedLine.net + closedLine.adjustedLater!.reduce((sum, x) => sum + x.net, 0)).toBe(await recordsNet(a, DAY));

    expect(await a.ledger.reopenDay(DAY, MALL, who('admin (console)'))).toEqual({ outcome: 'reopened' });
    const reopened = await summary(a, DAY, today);
    expect(lineOf(reopened, DAY)).toMatchObject({ payments: { count: 2, amount: 42000 }, deposits: { count: 1, amount: 5000 }, net: 45000 });
    expect(lineOf(reopened, DAY)!.closed).toBeUndefined();
    expect(lineOf(reopened, today)?.adjustments).toBeUndefined();
    expect(await a.ledger.reopenDay(DAY, MALL, who('admin (console)'))).toEqual({ outcome: 'not_closed' });
  });

  test('a close of every mall covers a mall that had nothing that day; a second close is told the first; closing every mall while one is closed alone is refused', async () => {
    const [a] = s.replicas;
    await a.store.record(notify.paid(order(1), 'PG-1', 1000, 60));
    expect(await a.ledger.closeDay(DAY, MALL, who('kim (console)'), DEFAULT)).toMatchObject({ outcome: 'closed' });
    expect(await a.ledger.closeDay(DAY, MALL, who('lee (console)'), DEFAULT)).toMatchObject({ outcome: 'already_closed', close: { closedBy: 'kim (console)' } });
    expect(await a.ledger.closeDay(DAY, null, who('lee (console)'), DEFAULT)).toEqual({ outcome: 'malls_closed', malls: [MALL] });
    await a.ledger.reopenDay(DAY, MALL, who('admin (cli)'));
    expect(await a.ledger.closeDay(DAY, null, who('lee (console)'), DEFAULT)).toMatchObject({ outcome: 'closed', close: { mallId: null } });
    await a.store.record(notify.paid({ mallId: 'T0000009', shopOrderNo: 'ORD-NEW-MALL' }, 'PG-9', 7000, 60));
    await a.ledger.caughtUp();
    const other = (await summary(a, DAY, DAY, null)).filter((d) => d.mallId === 'T0000009');
    expect(other).toEqual([expect.objectContaining({ payments: { count: 0, amount: 0, byMethod: {} }, net: 0, closed: expect.objectContaining({ everyMall: true }), adjustedLater: [{ on: kstDay(new Date().toISOString()), net: 7000 }] })]);
  });

  test('closes and inputs at once, on two replicas: two operators closing together close once, and every input of the day is in the kept figures or in an adjustment, exactly once', async () => {
    const [a, b] = s.replicas;
    for (let i = 0; i < 5; i++) await a.store.record(notify.paid(order(i), `PG-${i}`, 1000 + i, 30 + i));
    await a.ledger.caughtUp();
    // Inputs of the day keep arriving at one replica while two operators close at the other and at the first.
    const arriving = (async () => {
      for (let i = 5; i < 45; i++) await (i % 2 === 0 ? a : b).store.record(notify.paid(order(i), `PG-${i}`, 1000 + i, 30 + i));
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const closes = await Promise.all([b.ledger.closeDay(DAY, MALL, who('kim (console)'), DEFAULT), a.ledger.closeDay(DAY, MALL, who('lee (console)'), DEFAULT)]);
    await arriving;
    await a.ledger.caughtUp();
    await b.ledger.caughtUp();
    expect(closes.map((c) => c.outcome).sort()).toEqual(['already_closed', 'closed']);
    const line = lineOf(await summary(b, DAY, kstDay(new Date().toISOString())), DAY)!;
    const later = line.adjustedLater?.reduce((sum, x) => sum + x.net, 0) ?? 0;
    const expected = Array.from({ length: 45 }, (_, i) => 1000 + i).reduce((x, y) => x + y, 0);
    expect(await recordsNet(a, DAY)).toBe(expected);
    expect(line.net + later).toBe(expected);
    expect(line.payments.count + (await summary(a, kstDay(new Date().toISOString()), kstDay(new Date().toISOString())))
      .flatMap((d) => d.adjustments ?? []).reduce((sum, x) => sum + x.payments.count, 0)).toBe(45);
  });
}
