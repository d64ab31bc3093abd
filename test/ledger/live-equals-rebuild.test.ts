import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kstStamp } from '../../src/notifications/kst-date';
import {
  approvalNotification, changeNotification, depositNotification, refundNotification, transferFailedNotification,
} from '../../src/simulator/notification-builders';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { entryOf } from '../store/ledger-entries';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { money } from '../daily-summary/delta-contract';
import { sumsOverRecords } from '../daily-summary/summary-kit';

const BASE_MS = Date.UTC(2026, 10, 21, 3, 0, 0);
const iso = (minutes: number) => new Date(BASE_MS + minutes * 60_000).toISOString();
const stamp = (minutes: number) => kstStamp(new Date(BASE_MS + minutes * 60_000));

type Body = (order: { mallId: string; shopOrderNo: string }) => Record<string, string>;
const pgCno = fc.constantFrom('26112112000000000001', '26112112000000000002');
const cancelPgCno = fc.constantFrom('26112112000000000011', '26112112000000000012', '26112112000000000013');
const amount = fc.constantFrom(3000, 5000, 10000, 12000, 30000);
const at = fc.integer({ min: 0, max: 120 });

/** One gateway notification of the order, by the gateway's time `at` (minutes). */
const notification: fc.Arbitrary<Body> = fc.oneof(
  fc.record({ pgCno, amount, at }).map((o): Body => (order) => approvalNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), transactionDate: stamp(o.at) })),
  fc.record({ pgCno, cancelPgCno, amount, remain: fc.option(amount, { nil: undefined }), at }).map((o): Body => (order) => {
    const body: Record<string, string> = changeNotification({ ...order, pgCno: o.pgCno, cancelPgCno: o.cancelPgCno, cancelAmount: String(o.amount), amount: String(o.amount), cancelDate: stamp(o.at) });
    if (o.remain === undefined) delete body.cancelRemainAmount;
    else body.cancelRemainAmount = String(o.remain);
    return body;
  }),
  fc.record({ pgCno, amount, at }).map((o): Body => (order) => refundNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), refundDate: stamp(o.at) })),
  fc.record({ pgCno, amount, at }).map((o): Body => (order) => transferFailedNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), refundDate: stamp(o.at) })),
  fc.record({ pgCno, amount, at }).map((o): Body => (order) => depositNotification({ ...order, pgCno: o.pgCno, amount: String(o.amount), depositDate: stamp(o.at) })),
);

/** Notifications, some delivered again, in a shuffled arrival order; an expectation maybe; a group size for concurrent arrival. */
const story = fc.record({
  arrival: fc.array(notification, { minLength: 1, maxLength: 8 }).chain((bodies) =>
    fc.subarray(bodies).chain((again) => fc.shuffledSubarray([...bodies, ...again], { minLength: bodies.length + again.length, maxLength: bodies.length + again.length }))),
  expected: fc.option(fc.record({ amount, position: fc.nat() }), { nil: undefined }),
  together: fc.integer({ min: 1, max: 4 }),
});

let run = 0;

/**
 * The live records (computed transaction by transaction as notifications arrive, in any
 * order, redelivered, several in one group commit) are what `ledger rebuild` computes from the
 * stored facts: a rebuild changes none. Then the sweep after the grace period, and the rebuild again.
 */
function liveEqualsRebuild(open: () => Promise<{ stores: Stores; close(): Promise<void> }>): void {
  let stores: Stores;
  let close: () => Promise<void>;
  /** Orders this store has seen: one new order per run. */
  let seen = 0;
  beforeAll(async () => ({ stores, close } = await open()));
  afterAll(async () => close());

  test('over random arrival orders and redeliveries, a rebuild changes no record', async () => {
    await fc.assert(
      fc.asyncProperty(story, async ({ arrival, expected, together }) => {
        run += 1;
        const order = { mallId: `M${String(run).padStart(5, '0')}`, shopOrderNo: 'ORD-PROP' };
        // A new order per run, so the newest: a rebuild of it alone starts after the order_id of the
        // one seen before it (the last of a page of all the earlier ones).
        const after = seen === 0 ? null : (await stores.ledger.listOrders({ limit: seen })).last;
        seen += 1;
        // Received one minute apart in arrival order (the service's clock moves forward).
        const entries = arrival.map((body, i) => entryOf(body(order), i));
        const expectAt = expected ? expected.position % (entries.length + 1) : -1;
        for (let i = 0; i < entries.length; i += together) {
          if (expected && expectAt >= i && expectAt < i + together) {
            await stores.ledger.putExpectation(order, { amount: expected.amount, currency: 'KRW', method: 'card', expiresAt: null }, iso(expectAt - 0.5));
          }
          await Promise.all(entries.slice(i, i + together).map((entry) => stores.store.record(entry)));
        }
        if (expected && expectAt === entries.length) {
          await stores.ledger.putExpectation(order, { amount: expected.amount, currency: 'KRW', method: 'card', expiresAt: null }, iso(entries.length));
        }
        const last = iso(entries.length);
        const live = await stores.ledger.getOrder(order);
        expect(live?.events.length).toBe(new Set(entries.map((e) => e.event.id)).size);
        // The day's money the projector's deltas left: the bookings summed over the record directly, the order in its status.
        const summary = () => stores.ledger.dailySummary({ from: '2026-11-20', to: '2026-11-22', mallId: order.mallId }, 'KRW');
        const agrees = async (record: NonNullable<typeof live>) => {
          const days = await summary();
          expect(money(days)).toEqual(sumsOverRecords([record], 'KRW'));
          expect(days.filter((d) => d.date === '2026-11-22').map((d) => d.ordersByStatus)).toEqual([{ [record.status]: 1 }]);
          return days;
        };
        const liveSummary = await agrees(live!);
        const rebuilt = await stores.ledger.rebuildPage(after, 1, last);
        expect(rebuilt).toMatchObject({ orders: 1, changed: 0 });
        expect(await stores.ledger.getOrder(order)).toEqual(live);
        expect(await summary()).toEqual(liveSummary);
        // After the grace period the sweep opens what waited; a rebuild at that time agrees.
        const later = iso(entries.length + 60);
        await stores.ledger.sweep(later, 1000);
        const swept = await stores.ledger.getOrder(order);
        const sweptSummary = await agrees(swept!);
        expect(await stores.ledger.rebuildPage(after, 1, later)).toMatchObject({ orders: 1, changed: 0 });
        expect(await stores.ledger.getOrder(order)).toEqual(swept);
        expect(await summary()).toEqual(sweptSummary);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
}

describe('live ledger records equal the rebuild on SQLite', () => {
  liveEqualsRebuild(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-ledger-prop-'));
    const stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`);
    return { stores, close: async () => { await stores.store.close(); rmSync(dir, { recursive: true, force: true }); } };
  });
});

describePostgres('live ledger records equal the rebuild on PostgreSQL', () => {
  liveEqualsRebuild(async () => {
    const schema: TestSchema = await createTestSchema();
    const stores = await openStores(schema.url);
    return { stores, close: async () => { await stores.store.close(); await schema.drop(); } };
  });
});
