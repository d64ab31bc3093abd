import fc from 'fast-check';
import type { OrderRecord, OrderStatus } from '../../src/ledger/fold/order-record';
import { batchDeltas, summaryMove, type CountedOrder, type SummaryDelta } from '../../src/ledger/summary/summary-delta';
import { sumsOverRecords } from './summary-kit';

const MIDNIGHT_MS = Date.UTC(2026, 10, 21, 15, 0, 0);
const time = fc.integer({ min: -1440, max: 4 * 1440 }).map((m) => new Date(MIDNIGHT_MS + m * 60_000).toISOString());
const amount = fc.option(fc.constantFrom(1000, 2500, 12000), { nil: null });
const status = fc.constantFrom<OrderStatus>('paid', 'cancelled', 'partially_cancelled', 'discrepancy', 'awaiting_payment', 'ledger_error');

/** A record as the summary reads it (the fold's other fields are not read): any money, any status, any currency, real or simulated. */
const record = (mallId: string, shopOrderNo: string): fc.Arbitrary<OrderRecord> => fc.record({
  status,
  currency: fc.option(fc.constantFrom('KRW', 'USD'), { nil: undefined }),
  simulated: fc.boolean(),
  payments: fc.array(fc.record({ amount, at: time, method: fc.option(fc.constantFrom('11', '21', '99'), { nil: undefined }) }), { maxLength: 3 }),
  cancels: fc.array(fc.record({ amount, at: time }), { maxLength: 2 }),
  deposits: fc.array(fc.record({ amount, at: time, cancelledAt: fc.option(time, { nil: undefined }) }), { maxLength: 2 }),
  failed: fc.array(fc.record({ amount, at: time }), { maxLength: 2 }),
  discrepancies: fc.array(fc.record({ openedAt: time, resolvedAt: fc.option(time, { nil: null }) }), { maxLength: 2 }),
  updatedAt: time,
}).map((r): OrderRecord => ({
  mallId, shopOrderNo, status: r.status,
  expected: r.currency === undefined ? null : { amount: 1000, currency: r.currency, method: 'card', expiresAt: null } as OrderRecord['expected'],
  approved: 0, cancelled: 0, remaining: 0, deposited: 0,
  payments: r.payments.map((p, i) => ({ pgCno: `P${i}`, amount: p.amount, cancelled: false, ...(p.method === undefined ? {} : { method: p.method }), eventId: `e${i}`, at: p.at })),
  cancels: r.cancels.map((c, i) => ({ cancelPgCno: `C${i}`, pgCno: 'P0', amount: c.amount, remainingAfter: 0, eventId: `c${i}`, at: c.at })),
  deposits: r.deposits.map((d, i) => ({ pgCno: `V${i}`, amount: d.amount, cancelled: d.cancelledAt !== undefined, ...(d.cancelledAt === undefined ? {} : { cancelledAt: d.cancelledAt }), eventId: `d${i}`, at: d.at })),
  ...(r.failed.length === 0 ? {} : { refundsFailed: r.failed.map((f, i) => ({ pgCno: 'P0', amount: f.amount, eventId: `f${i}`, at: f.at })) as OrderRecord['refundsFailed'] }),
  escrow: null, cancellationsRequested: [], events: [],
  discrepancies: r.discrepancies.map((d, i) => ({ id: `dsc${i}`, kind: 'amount_mismatch', details: {}, eventIds: [], openedAt: d.openedAt, resolvedAt: d.resolvedAt, resolvedBy: null, note: null })),
  updatedAt: r.updatedAt,
  ...(r.simulated ? { simulated: true as const } : {}),
}));

/** The totals as a table holds them: `day|mall|currency` → the figures `sumsOverRecords` reads, and the status rows apart. */
function totalsOf(rows: ReadonlyArray<SummaryDelta & { mallId: string }>) {
  const money = new Map<string, Record<string, { count: number; amount: number }>>();
  const status = new Map<string, number>();
  for (const row of rows) {
    if (row.kind === 'status') {
      const key = `${row.day}|${row.mallId}|${row.currency}|${row.method}`;
      status.set(key, (status.get(key) ?? 0) + row.count);
      continue;
    }
    const key = `${row.day}|${row.mallId}|${row.currency === '' ? 'KRW' : row.currency}`;
    const figures = money.get(key) ?? {};
    const name = `${row.simulated && !row.kind.startsWith('discrepancy') ? 'simulated:' : ''}${row.kind}:${row.method}`;
    const sum = (figures[name] ??= { count: 0, amount: 0 });
    sum.count += row.count;
    sum.amount += row.amount;
    money.set(key, figures);
  }
  return { money, status };
}

/** `sumsOverRecords`' days, in the same shape as `totalsOf`' money. */
function expectedMoney(records: readonly OrderRecord[]) {
  const money = new Map<string, Record<string, { count: number; amount: number }>>();
  for (const [key, day] of sumsOverRecords(records, 'KRW')) {
    const figures: Record<string, { count: number; amount: number }> = {};
    const put = (name: string, count: number, amount: number) => {
      if (count !== 0 || amount !== 0) figures[name] = { count, amount };
    };
    for (const [prefix, m] of [['', day], ['simulated:', day.simulated]] as const) {
      for (const [method, p] of Object.entries(m.payments.byMethod)) put(`${prefix}payment:${method}`, p.count, p.amount);
      put(`${prefix}cancel:`, m.cancels.count, m.cancels.amount);
      put(`${prefix}deposit:`, m.deposits.count, m.deposits.amount);
      put(`${prefix}deposit_cancel:`, m.depositCancels.count, m.depositCancels.amount);
      put(`${prefix}refund_failed:`, m.refundsFailed.count, m.refundsFailed.amount);
      put(`${prefix}refund_failed_unknown:`, m.refundsFailed.unknownCount, 0);
    }
    put('discrepancy_opened:', day.discrepancies.opened, 0);
    put('discrepancy_resolved:', day.discrepancies.resolved, 0);
    if (Object.keys(figures).length > 0) money.set(key, figures);
  }
  return money;
}

const withoutZeros = (money: Map<string, Record<string, { count: number; amount: number }>>) => new Map([...money]
  .map(([key, figures]) => [key, Object.fromEntries(Object.entries(figures).filter(([, f]) => f.count !== 0 || f.amount !== 0))] as const)
  .filter(([, figures]) => Object.keys(figures).length > 0));

describe('the day\'s money by deltas (summaryMove, batchDeltas)', () => {
  test('for any orders, any records written one after another and any batching of them, the summed deltas are the bookings summed over the last records directly, and orders by status are never negative and end in each order\'s last status', () => {
    const order = (i: number) => fc.array(record(i % 2 === 0 ? 'MA' : 'MB', `O${i}`), { minLength: 1, maxLength: 5 });
    fc.assert(fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }).chain((seeds) => fc.tuple(...seeds.map((_, i) => order(i)))), fc.integer({ min: 1, max: 4 }), (histories, batchSize) => {
      // Each batch writes the next record of every order still moving: several inputs of one order in one batch are one move.
      const counted = new Map<number, CountedOrder | null>(histories.map((_, i) => [i, null]));
      const rows: Array<SummaryDelta & { mallId: string }> = [];
      const steps = Math.max(...histories.map((h) => h.length));
      for (let at = 0; at < steps; at += batchSize) {
        const moves = histories.flatMap((history, i) => {
          const next = history[Math.min(at + batchSize, history.length) - 1];
          if (next === undefined || at >= history.length) return [];
          const before = counted.get(i) ?? null;
          const move = summaryMove(next, before?.record ?? null, before);
          counted.set(i, { record: next, statusDay: move.statusDay });
          return [{ mallId: next.mallId, deltas: move.deltas }];
        });
        const batch = batchDeltas(moves);
        // One row per key in a batch: one upsert touches each row once.
        const keys = batch.map((r) => `${r.day}|${r.mallId}|${r.currency}|${r.kind}|${r.method}|${r.simulated}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect(batch.filter((r) => r.count === 0 && r.amount === 0)).toEqual([]);
        rows.push(...batch);
      }
      const last = histories.map((h) => h.at(-1)!);
      const { money, status } = totalsOf(rows);
      expect(withoutZeros(money)).toEqual(expectedMoney(last));
      // Running sums of status changes per mall and currency: never below zero, and at the end each order counted once, in its last status.
      const running = new Map<string, number>();
      for (const [key, n] of [...status].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const [, mallId, currency, s] = key.split('|');
        const k = `${mallId}|${currency}|${s}`;
        running.set(k, (running.get(k) ?? 0) + n);
        expect([key, running.get(k)! >= 0]).toEqual([key, true]);
      }
      const end: Record<string, number> = {};
      for (const r of last) end[`${r.mallId}|${r.expected?.currency ?? ''}|${r.status}`] = (end[`${r.mallId}|${r.expected?.currency ?? ''}|${r.status}`] ?? 0) + 1;
      expect(Object.fromEntries([...running].filter(([, n]) => n !== 0))).toEqual(end);
    }), { numRuns: 300 });
  });

  test('a change books on its own day, never before the day the status it leaves counted from; a status kept keeps its day', () => {
    const base = fc.sample(record('M', 'O'), { numRuns: 1, seed: 7 })[0]!;
    const paid: OrderRecord = { ...base, status: 'paid', expected: null, payments: [{ pgCno: 'P', amount: 1000, cancelled: false, eventId: 'e', at: '2026-11-22T01:00:00.000Z' }], cancels: [], deposits: [], discrepancies: [], refundsFailed: undefined, simulated: undefined };
    const cancelled: OrderRecord = { ...paid, status: 'cancelled', cancels: [{ cancelPgCno: 'C', pgCno: 'P', amount: 1000, remainingAfter: 0, eventId: 'c', at: '2026-11-22T02:00:00.000Z' }] };
    // Counted from the 24th (registered then): the cancel dated the 22nd books on the 24th.
    const move = summaryMove(cancelled, paid, { record: paid, statusDay: '2026-11-24' });
    expect(move.statusDay).toBe('2026-11-24');
    expect(move.deltas.filter((d) => d.kind === 'status')).toEqual([
      { day: '2026-11-24', currency: '', kind: 'status', method: 'paid', simulated: false, count: -1, amount: 0 },
      { day: '2026-11-24', currency: '', kind: 'status', method: 'cancelled', simulated: false, count: 1, amount: 0 },
    ]);
    expect(move.deltas.filter((d) => d.kind !== 'status')).toEqual([{ day: '2026-11-22', currency: '', kind: 'cancel', method: '', simulated: false, count: 1, amount: 1000 }]);
    // Counted before the day was kept (''): on its own day.
    expect(summaryMove(cancelled, paid, { record: paid, statusDay: '' }).statusDay).toBe('2026-11-22');
    // The same status and currency: no status row, the day it counted from stays.
    expect(summaryMove(paid, paid, { record: paid, statusDay: '2026-11-25' })).toEqual({ deltas: [], statusDay: '2026-11-25' });
    // Not counted: added whole, from the day of the first time it shows.
    expect(summaryMove(cancelled, paid, null).deltas.filter((d) => d.kind !== 'status')).toHaveLength(2);
  });
});
