import { currencyOrDefault, orderCurrency } from '../../src/ledger/fold/order-currency';
import type { LedgerSettings } from '../../src/config/ledger-settings';
import type { Stores } from '../../src/ledger/projector/open-stores';
import { cancelled, MALL, minute, paid, transferFailed } from './ledger-entries';
import { inContract } from '../helpers/event-contract';

export interface LedgerStores {
  stores: Stores;
  cleanup(): Promise<void>;
}

const SETTINGS: LedgerSettings = { requireExpectation: false, graceSeconds: 2100 };
const order = (shopOrderNo: string) => ({ mallId: MALL, shopOrderNo });

/** The ledger's store verbs, run against each database by ledger-store.test.ts. */
export function ledgerContract(openFresh: (settings: LedgerSettings) => Promise<LedgerStores>): void {
  let stores: Stores;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ stores, cleanup } = await openFresh(SETTINGS));
  });
  afterEach(async () => cleanup());

  const queued = async () => inContract((await stores.store.nextPending(1000)).map((row) => JSON.parse(row.eventJson) as Record<string, unknown>))
    .map((json) => ({ type: String(json.type), json }));

  test('an accepted approval makes its order paid once the projector has applied it, and the status change follows it in the queue', async () => {
    await expect(stores.store.record(paid('ORD-1', 'PG-1', 30000))).resolves.toMatchObject({ outcome: 'accepted' });
    const record = await stores.ledger.getOrder(order('ORD-1'));
    expect(record).toMatchObject({ status: 'paid', approved: 30000, remaining: 30000, payments: [{ pgCno: 'PG-1', amount: 30000 }] });
    const events = await queued();
    expect(events.map((e) => e.type)).toEqual(['payment.approved', 'order.status_changed']);
    expect(events[1]!.json).toMatchObject({ type: 'order.status_changed', from: null, to: 'paid', order: { mallId: MALL, shopOrderNo: 'ORD-1', approved: 30000 } });
  });

  test('a redelivery stores no fact, changes no record and queues nothing', async () => {
    await stores.store.record(paid('ORD-2', 'PG-2', 30000));
    const before = await stores.ledger.getOrder(order('ORD-2'));
    await expect(stores.store.record(paid('ORD-2', 'PG-2', 30000))).resolves.toMatchObject({ outcome: 'duplicate' });
    expect(await stores.ledger.getOrder(order('ORD-2'))).toEqual(before);
    expect(await queued()).toHaveLength(2);
  });

  test('an unknown order is null; a notification without an order number makes none', async () => {
    expect(await stores.ledger.getOrder(order('NOPE'))).toBeNull();
  });

  test('an expectation PUT makes the record; repeating it is harmless; a payment of another amount is an amount_mismatch, after which changing the amount is refused', async () => {
    const input = { amount: 30000, currency: 'KRW', method: 'card' as const, expiresAt: null };
    const first = await stores.ledger.putExpectation(order('ORD-3'), input, minute(-5));
    expect(first).toMatchObject({ outcome: 'stored', record: { status: 'awaiting_payment', expected: { amount: 30000, source: 'expectation' } } });
    await expect(stores.ledger.putExpectation(order('ORD-3'), input, minute(-4))).resolves.toEqual(first);
    await stores.store.record(paid('ORD-3', 'PG-3', 3000, 1));
    const record = await stores.ledger.getOrder(order('ORD-3'));
    expect(record).toMatchObject({ status: 'discrepancy', discrepancies: [{ kind: 'amount_mismatch', details: { expected: 30000, notified: 3000 }, resolvedAt: null }] });
    await expect(stores.ledger.putExpectation(order('ORD-3'), { ...input, amount: 3000 }, minute(2)))
      .resolves.toEqual({ outcome: 'conflict', conflict: { reason: 'already_paid', amount: 30000, currency: 'KRW', expiresAt: null } });
    const types = (await queued()).map((e) => e.type);
    expect(types).toEqual(['order.status_changed', 'payment.approved', 'ledger.discrepancy', 'order.status_changed']);
  });

  test('a discrepancy is listed and counted while open; resolving it is audited, recomputes the order and is not done twice', async () => {
    await stores.store.record(paid('ORD-4', 'PG-4A', 10000, 0));
    await stores.store.record(paid('ORD-4', 'PG-4B', 10000, 1));
    const record = (await stores.ledger.getOrder(order('ORD-4')))!;
    expect(record.status).toBe('discrepancy');
    const [open] = record.discrepancies;
    expect(open).toMatchObject({ kind: 'duplicate_payment' });
    expect(await stores.ledger.openDiscrepancyCounts()).toEqual({ duplicate_payment: 1 });
    expect((await stores.ledger.listDiscrepancies({ open: true, limit: 10 })).discrepancies).toEqual([{ ...open, mallId: MALL, shopOrderNo: 'ORD-4' }]);
    expect((await stores.ledger.listOrders({ status: 'discrepancy', limit: 10 })).orders.map((o) => o.shopOrderNo)).toEqual(['ORD-4']);

    const resolution = { by: 'kim', note: 'refunded the second payment by hand', at: minute(10), actor: 'internal-api' };
    const resolved = await stores.ledger.resolveDiscrepancy(open!.id, resolution);
    expect(resolved).toMatchObject({ outcome: 'resolved', record: { status: 'paid', discrepancies: [{ id: open!.id, resolvedBy: 'kim', note: resolution.note, resolvedAt: minute(10) }] } });
    await expect(stores.ledger.resolveDiscrepancy(open!.id, { ...resolution, by: 'lee' })).resolves.toMatchObject({ outcome: 'already_resolved', record: { discrepancies: [{ resolvedBy: 'kim' }] } });
    await expect(stores.ledger.resolveDiscrepancy('dsc_unknown', resolution)).resolves.toEqual({ outcome: 'not_found' });
    expect(await stores.ledger.openDiscrepancyCounts()).toEqual({});
    expect((await stores.ledger.listDiscrepancies({ open: true, limit: 10 })).discrepancies).toEqual([]);
    expect((await stores.ledger.listDiscrepancies({ open: false, limit: 10 })).discrepancies).toHaveLength(1);
    expect((await stores.store.listAudit(10, 0)).map((a) => [a.action, a.subject, a.actor])).toEqual([['resolved discrepancy', open!.id, 'internal-api']]);
    // A redelivery of the second payment does not reopen it.
    await stores.store.record(paid('ORD-4', 'PG-4B', 10000, 1));
    expect((await stores.ledger.getOrder(order('ORD-4')))!.status).toBe('paid');
  });

  test('an over-cancel opens only after the grace period, when the sweep finds the order', async () => {
    await stores.store.record(cancelled('ORD-5', 'PG-5', 'PG-5C', 5000, 0));
    expect(await stores.ledger.getOrder(order('ORD-5'))).toMatchObject({ discrepancies: [] });
    expect(await stores.ledger.sweep(minute(20))).toBe(0);
    expect(await stores.ledger.sweep(minute(36))).toBe(1);
    expect(await stores.ledger.getOrder(order('ORD-5'))).toMatchObject({ status: 'discrepancy', discrepancies: [{ kind: 'over_cancel', openedAt: minute(35) }] });
    expect(await stores.ledger.sweep(minute(40))).toBe(0);
    // The late approval resolves it (by the ledger).
    await stores.store.record(paid('ORD-5', 'PG-5', 5000, 41));
    expect(await stores.ledger.getOrder(order('ORD-5'))).toMatchObject({ status: 'cancelled', discrepancies: [{ kind: 'over_cancel', resolvedBy: 'ledger' }] });
  });

  test("a ledger event is found by the pgCno of its order's notifications, also before any payment", async () => {
    await stores.store.record(cancelled('ORD-9', 'PG-9', 'PG-9C', 1000));
    // The ledger's event is queued by its projector, behind the ack.
    await stores.ledger.caughtUp();
    const found = await stores.store.searchEvents({ query: 'PG-9', limit: 10, offset: 0 });
    expect(found.map((row) => [row.type, row.pgCno]).sort()).toEqual([['order.status_changed', 'PG-9'], ['payment.changed', 'PG-9']]);
  });

  test('a failed refund transfer is refund_failed at once', async () => {
    await stores.store.record(paid('ORD-6', 'PG-6', 10000, 0));
    await stores.store.record(transferFailed('ORD-6', 'PG-6', 10000, 5));
    expect(await stores.ledger.getOrder(order('ORD-6'))).toMatchObject({ status: 'refund_failed', discrepancies: [{ kind: 'refund_transfer_failed' }] });
  });

  test('a rebuild of a consistent store changes no record, page by page', async () => {
    for (let i = 0; i < 5; i++) await stores.store.record(paid(`ORD-R${i}`, `PG-R${i}`, 1000 * (i + 1), i));
    await stores.store.record(paid('ORD-R1', 'PG-R1B', 500, 9));
    // Consistent means projected: on PostgreSQL a page read before the projector's batch commits
    // would list only the orders it has written so far.
    await stores.ledger.caughtUp();
    const first = await stores.ledger.rebuildPage(null, 3, minute(10));
    expect(first).toEqual({ orders: 3, changed: 0, next: expect.any(Number) });
    await expect(stores.ledger.rebuildPage(first.next, 3, minute(10))).resolves.toEqual({ orders: 2, changed: 0, next: null });
  });

  /** A command created, attempted and finished in `state`, as the worker does it. */
  const finishCommand = async (kind: 'wallet-a.create' | 'wallet-b.cancel', shopTransactionId: string, request: Record<string, unknown>, state: 'succeeded' | 'failed', at: string) => {
    await stores.commands.createCommand({ kind, shopTransactionId, mallId: MALL, bodyHash: 'h', request, state: 'pending', at, owner: 'me', leaseUntil: Date.parse(at) + 60_000 });
    const n = await stores.commands.beginAttempt({ shopTransactionId, owner: 'me', operation: kind, request, state: 'pending', at, leaseUntil: Date.parse(at) + 60_000 });
    return stores.commands.finishAttempt({
      shopTransactionId, owner: 'me', n: n!, at, httpStatus: 200, response: { resCd: '0000' }, answerText: null, error: null, state, nextAttemptAt: 0, event: null,
    });
  };

  test("a wallet-a trade that succeeds is the order's expectation, in the transaction that stores its state", async () => {
    const request = { mallId: MALL, shopOrderNo: 'ORD-7', amountInfo: { totalAmount: 25000, currency: 'KRW' } };
    await finishCommand('wallet-a.create', 'st-trade-7', request, 'succeeded', minute(0));
    expect(await stores.ledger.getOrder(order('ORD-7'))).toMatchObject({ status: 'awaiting_payment', expected: { amount: 25000, currency: 'KRW', source: 'wallet-a', method: 'wallet' } });
    // The shop cannot restate the amount the service asked the gateway for.
    await expect(stores.ledger.putExpectation(order('ORD-7'), { amount: 20000, currency: 'KRW', method: 'wallet', expiresAt: null }, minute(1)))
      .resolves.toEqual({ outcome: 'conflict', conflict: { reason: 'wallet_trade_amount', amount: 25000, currency: 'KRW' } });
    await stores.store.record(paid('ORD-7', 'PG-7', 20000, 2));
    expect(await stores.ledger.getOrder(order('ORD-7'))).toMatchObject({ status: 'discrepancy', discrepancies: [{ kind: 'amount_mismatch' }] });
    // A trade that failed expects nothing.
    await finishCommand('wallet-a.create', 'st-trade-8', { ...request, shopOrderNo: 'ORD-8' }, 'failed', minute(0));
    expect(await stores.ledger.getOrder(order('ORD-8'))).toBeNull();
  });

  test("a wallet-b cancellation shows as requested on the order its pgCno was paid for, never as cancelled", async () => {
    await stores.store.record(paid('ORD-9', 'PG-9', 30000, 0));
    await finishCommand('wallet-b.cancel', 'st-cancel-9', { mallId: MALL, pgCno: 'PG-9', reviseTypeCode: '40' }, 'succeeded', minute(1));
    expect(await stores.ledger.getOrder(order('ORD-9'))).toMatchObject({
      status: 'paid', cancelled: 0, cancellationsRequested: [{ shopTransactionId: 'st-cancel-9', pgCno: 'PG-9', state: 'succeeded' }],
    });
    // A cancellation of a payment nobody notified names no order.
    await finishCommand('wallet-b.cancel', 'st-cancel-x', { mallId: MALL, pgCno: 'PG-UNKNOWN', reviseTypeCode: '40' }, 'succeeded', minute(1));
    expect((await stores.ledger.listOrders({ limit: 10 })).orders.map((o) => o.shopOrderNo)).toEqual(['ORD-9']);
  });

  // Not by mall and number: the status index is (status, order_id) since migration 011, so a new
  // order appends to it in the ack's commit.
  test('orders page in the order they were first seen, with a cursor, of every status or of one', async () => {
    for (const [i, no] of ['ORD-P2', 'ORD-P0', 'ORD-P1'].entries()) await stores.store.record(paid(no, `PG-${no}`, 1000, i));
    await stores.store.record(transferFailed('ORD-P0', 'PG-ORD-P0', 1000, 5));
    const page = await stores.ledger.listOrders({ limit: 2 });
    expect(page.orders.map((o) => o.shopOrderNo)).toEqual(['ORD-P2', 'ORD-P0']);
    const rest = await stores.ledger.listOrders({ limit: 2, after: page.last! });
    expect(rest).toMatchObject({ orders: [{ shopOrderNo: 'ORD-P1' }], last: null });
    const paidPage = await stores.ledger.listOrders({ status: 'paid', limit: 1 });
    expect(paidPage.orders.map((o) => o.shopOrderNo)).toEqual(['ORD-P2']);
    expect((await stores.ledger.listOrders({ status: 'paid', limit: 1, after: paidPage.last! })).orders.map((o) => o.shopOrderNo)).toEqual(['ORD-P1']);
    expect((await stores.ledger.findOrders('ORD-P1')).map((o) => o.mallId)).toEqual([MALL]);
  });

  test("orders page newest first, and a time range keeps the orders last changed in it, with the count of each status in that range", async () => {
    for (const [i, no] of ['ORD-N0', 'ORD-N1', 'ORD-N2', 'ORD-N3'].entries()) await stores.store.record(paid(no, `PG-${no}`, 1000, i * 60));
    await stores.store.record(transferFailed('ORD-N1', 'PG-ORD-N1', 1000, 70));
    const newest = await stores.ledger.listOrders({ limit: 3, newestFirst: true });
    expect(newest.orders.map((o) => o.shopOrderNo)).toEqual(['ORD-N3', 'ORD-N2', 'ORD-N1']);
    expect(await stores.ledger.listOrders({ limit: 3, newestFirst: true, after: newest.last! })).toMatchObject({ orders: [{ shopOrderNo: 'ORD-N0' }], last: null });
    expect((await stores.ledger.listOrders({ status: 'paid', limit: 10, newestFirst: true })).orders.map((o) => o.shopOrderNo)).toEqual(['ORD-N3', 'ORD-N2', 'ORD-N0']);

    // ORD-N1 was paid at minute 60 and changed last at 70 (its refund failed): the range is about the last change.
    const range = { from: minute(60), to: minute(121) };
    expect((await stores.ledger.listOrders({ limit: 10, newestFirst: true, ...range })).orders.map((o) => o.shopOrderNo)).toEqual(['ORD-N2', 'ORD-N1']);
    expect((await stores.ledger.listOrders({ limit: 10, ...range, to: minute(120) })).orders.map((o) => o.shopOrderNo)).toEqual(['ORD-N1']);
    expect((await stores.ledger.listOrders({ status: 'paid', limit: 10, ...range })).orders.map((o) => o.shopOrderNo)).toEqual(['ORD-N2']);
    expect(await stores.ledger.orderStatusCounts()).toEqual({ paid: 3, refund_failed: 1 });
    expect(await stores.ledger.orderStatusCounts(range)).toEqual({ paid: 1, refund_failed: 1 });
    expect(await stores.ledger.orderStatusCounts({ from: minute(500) })).toEqual({});
  });

  test('resolved discrepancies are listed without the open ones', async () => {
    await stores.store.record(transferFailed('ORD-R1', 'PG-R1', 1000, 0));
    await stores.store.record(transferFailed('ORD-R2', 'PG-R2', 1000, 1));
    const [first, second] = (await stores.ledger.listDiscrepancies({ open: true, limit: 10 })).discrepancies;
    await stores.ledger.resolveDiscrepancy(first!.id, { by: 'kim', note: 'paid out again', at: minute(5), actor: 'kim' });
    expect((await stores.ledger.listDiscrepancies({ open: false, resolved: true, limit: 10 })).discrepancies.map((d) => d.id)).toEqual([first!.id]);
    expect((await stores.ledger.listDiscrepancies({ open: true, limit: 10 })).discrepancies.map((d) => d.id)).toEqual([second!.id]);
    expect((await stores.ledger.listDiscrepancies({ open: false, limit: 10 })).discrepancies).toHaveLength(2);
  });

  test('open discrepancies are counted per kind and per real or simulated order, for the metric; a body naming the simulator is real', async () => {
    await stores.store.record(transferFailed('ORD-S-REAL', 'PG-SR', 1000, 0));
    await stores.store.record(transferFailed('ORD-S-FORGED', 'PG-SF', 1000, 0, { simulator: 'noti-receiver' }));
    await stores.store.record(transferFailed('ORD-S-SIM1', 'PG-SS1', 1000, 1, {}, { simulator: true }));
    await stores.store.record(transferFailed('ORD-S-SIM2', 'PG-SS2', 1000, 2, {}, { simulator: true }));
    // The metric reads what the projector has applied, without waiting for it.
    await stores.ledger.caughtUp();
    const counts = await stores.ledger.openDiscrepancyCountsByOrigin();
    expect(counts.sort((a, b) => Number(a.simulated) - Number(b.simulated))).toEqual([
      { kind: 'refund_transfer_failed', simulated: false, count: 2 },
      { kind: 'refund_transfer_failed', simulated: true, count: 2 },
    ]);
    expect(await stores.ledger.getOrder(order('ORD-S-FORGED'))).not.toHaveProperty('simulated');
  });

  test("an order is simulated only while every notification of it carries the simulator's mark: one without makes it real, and a rebuild agrees", async () => {
    await stores.store.record(paid('ORD-S-MIX', 'PG-SM1', 1000, 0, MALL, { simulator: true }));
    await stores.store.record(paid('ORD-S-MIX', 'PG-SM2', 1000, 1, MALL, { simulator: true }));
    expect(await stores.ledger.getOrder(order('ORD-S-MIX'))).toMatchObject({ simulated: true, status: 'discrepancy' });
    // A notification without the mark (here a third approval) is the gateway's word, or anyone's: the order is real from now on.
    await stores.store.record(paid('ORD-S-MIX', 'PG-SM3', 1000, 2));
    const real = await stores.ledger.getOrder(order('ORD-S-MIX'));
    expect(real).not.toHaveProperty('simulated');
    expect(real).toMatchObject({ status: 'discrepancy' });
    const events = (await queued()).filter((e) => (e.json.order as { shopOrderNo?: string } | undefined)?.shopOrderNo === 'ORD-S-MIX');
    expect(events.map((e) => (e.json.order as { simulated?: true }).simulated ?? false)).toContain(true);
    expect((events.at(-1)!.json.order as Record<string, unknown>)).not.toHaveProperty('simulated');
    await expect(stores.ledger.rebuildPage(null, 100, minute(10))).resolves.toMatchObject({ changed: 0 });
    expect(await stores.ledger.getOrder(order('ORD-S-MIX'))).toEqual(real);
  });

  test("each listed discrepancy comes with its order's expectation's currency from the list's one query, as orderCurrency reads it from the record", async () => {
    const expect$ = (amount: number, currency: string) => ({ amount, currency, method: 'card' as const, expiresAt: null });
    await stores.ledger.putExpectation(order('ORD-C-USD'), expect$(1203, 'USD'), minute(-5));
    await stores.store.record(paid('ORD-C-USD', 'PG-CU', 1200, 0));
    await stores.ledger.putExpectation(order('ORD-C-KRW'), expect$(12000, 'KRW'), minute(-5));
    await stores.store.record(paid('ORD-C-KRW', 'PG-CK', 1200, 1));
    // No expectation: no currency from the store, the mall's default applies.
    await stores.store.record(paid('ORD-C-NONE', 'PG-CN1', 1000, 2));
    await stores.store.record(paid('ORD-C-NONE', 'PG-CN2', 1000, 3));
    const page = await stores.ledger.listDiscrepancies({ open: true, limit: 10 });
    expect(page.discrepancies.map((d) => [d.shopOrderNo, d.kind, page.currencies[d.id] ?? null])).toEqual([
      ['ORD-C-USD', 'amount_mismatch', 'USD'], ['ORD-C-KRW', 'amount_mismatch', 'KRW'], ['ORD-C-NONE', 'duplicate_payment', null],
    ]);
    for (const d of page.discrepancies) expect(currencyOrDefault(page.currencies[d.id], 'JPY')).toBe(orderCurrency(await stores.ledger.getOrder(d), 'JPY'));
    // A resolved one keeps its order's currency, and a page holds only its own rows' currencies.
    await stores.ledger.resolveDiscrepancy(page.discrepancies[0]!.id, { by: 'kim', note: 'refunded', at: minute(10), actor: 'kim' });
    const resolved = await stores.ledger.listDiscrepancies({ open: false, resolved: true, limit: 10 });
    expect(resolved.currencies).toEqual({ [page.discrepancies[0]!.id]: 'USD' });
    expect((await stores.ledger.listDiscrepancies({ open: true, limit: 1 })).currencies).toEqual({ [page.discrepancies[1]!.id]: 'KRW' });
  });

  test('an order number known to two malls is found by the number alone, once per mall, by mall', async () => {
    await stores.store.record(paid('ORD-M', 'PG-M2', 1000, 0, 'T0009999'));
    await stores.store.record(paid('ORD-M', 'PG-M1', 2000, 1));
    expect((await stores.ledger.findOrders('ORD-M')).map((o) => [o.mallId, o.approved])).toEqual([[MALL, 2000], ['T0009999', 1000]]);
    expect(await stores.ledger.getOrder({ mallId: 'T0009999', shopOrderNo: 'ORD-M' })).toMatchObject({ approved: 1000 });
  });
}
