import { expectationFact } from '../../src/ledger/fold/expectation-fact';
import { approvalNotification, changeNotification, nextPgCno } from '../../src/simulator/notification-builders';
import { rawSql } from '../helpers/raw-sql';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { startLedgerApp, type LedgerApp } from './ledger-app-harness';
import { type Event, type OrderRecord, orderNumbers, stamp } from './story-kit';

const MALL = 'T0001234';
const orderNo = orderNumbers('ORD-MONEY');


/**
 * Payment stories where the ledger once told the people who move money something false (issue 35,
 * "Money told wrong"), end to end: the gateway's bodies POSTed to the listener, the order read
 * through the internal API, the queue read from the file sink, and a rebuild that changes nothing.
 */
function moneyStories(open: () => Promise<LedgerApp>): void {
  let app: LedgerApp;
  beforeEach(async () => void (app = await open()));
  afterEach(async () => app?.close());

  const order = async (shopOrderNo: string, mallId = MALL): Promise<OrderRecord> =>
    (await app.api.get(`/v1/orders/${mallId}/${encodeURIComponent(shopOrderNo)}`).expect(200)).body as OrderRecord;
  const step = async (body: Record<string, string>): Promise<OrderRecord> => {
    const ack = await app.notify(body).expect(200);
    expect(ack.body).toMatchObject({ resCd: '0000' });
    return order(body.shopOrderNo!, body.mallId);
  };
  const putExpectation = (shopOrderNo: string, body: unknown) => app.api.put(`/v1/orders/${MALL}/${encodeURIComponent(shopOrderNo)}/expectation`, body);
  const statusChanges = async (shopOrderNo: string, n: number): Promise<string[]> =>
    (await app.forwarded(n))
      .filter((e) => e.type === 'order.status_changed' && (e.order as { shopOrderNo: string }).shopOrderNo === shopOrderNo)
      .map((e) => `${String((e as Event).from)}>${String((e as Event).to)}`);
  const rebuildChangesNothing = async () => {
    const before = (await app.stores.ledger.listOrders({ limit: 100 })).orders;
    expect(await app.stores.ledger.rebuildPage(null, 100, new Date().toISOString())).toMatchObject({ changed: 0 });
    expect((await app.stores.ledger.listOrders({ limit: 100 })).orders).toEqual(before);
  };

  test('expected 12,000, approved 1,200, the amount_mismatch resolved "payment cancelled": the order reads underpaid, never paid, and the queue never hears paid', async () => {
    const shopOrderNo = orderNo();
    await putExpectation(shopOrderNo, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    const short = await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '1200', transactionDate: stamp(-1) }));
    expect(short).toMatchObject({ status: 'discrepancy', approved: 1200 });
    const mismatch = short.discrepancies.find((d) => d.kind === 'amount_mismatch')!;
    const resolved = (await app.api.post(`/v1/discrepancies/${mismatch.id}/resolve`, { note: 'payment cancelled', by: 'kim.operator' }).expect(200)).body as { order?: OrderRecord } & OrderRecord;
    const after = await order(shopOrderNo);
    expect(after).toMatchObject({ status: 'underpaid', approved: 1200, remaining: 1200 });
    expect(after.discrepancies).toEqual([expect.objectContaining({ kind: 'amount_mismatch', resolvedBy: 'kim.operator' })]);
    expect(JSON.stringify(resolved)).not.toContain('"status":"paid"');
    // awaiting_payment (expectation), discrepancy (the payment), underpaid (the resolution): never paid.
    expect(await statusChanges(shopOrderNo, 7)).toEqual(['null>awaiting_payment', 'awaiting_payment>discrepancy', 'discrepancy>underpaid']);
    expect((await app.api.get('/v1/orders?status=underpaid').expect(200)).body.orders.map((o: OrderRecord) => o.shopOrderNo)).toContain(shopOrderNo);
    expect((await app.api.get('/v1/orders?status=paid').expect(200)).body.orders.map((o: OrderRecord) => o.shopOrderNo)).not.toContain(shopOrderNo);
    await rebuildChangesNothing();
  });

  test('two approvals of the expected amount, the duplicate_payment resolved: overpaid until one is cancelled', async () => {
    const shopOrderNo = orderNo();
    await putExpectation(shopOrderNo, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '12000', transactionDate: stamp(-2) }));
    const twice = await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '12000', transactionDate: stamp(-1) }));
    const duplicate = twice.discrepancies.find((d) => d.kind === 'duplicate_payment')!;
    await app.api.post(`/v1/discrepancies/${duplicate.id}/resolve`, { note: 'will refund one', by: 'kim.operator' }).expect(200);
    expect(await order(shopOrderNo)).toMatchObject({ status: 'overpaid', approved: 24000 });
    await rebuildChangesNothing();
  });

  test('one pgCno approved for ORD-A, then for ORD-B (which has an expectation): a conflicting_notification on both orders, ORD-A still paid by it', async () => {
    const [a, b] = [orderNo(), orderNo()];
    const pgCno = nextPgCno();
    await putExpectation(b, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    const first = approvalNotification({ mallId: MALL, shopOrderNo: a, pgCno, amount: '30000', transactionDate: stamp(-2) });
    expect(await step(first)).toMatchObject({ status: 'paid', approved: 30000 });
    // The same payment number under another order: the same dedup key, so the gateway is acked as for any redelivery.
    await step({ ...first, shopOrderNo: b });
    const [recordA, recordB] = [await order(a), await order(b)];
    const details = { pgCno, notiType: '10', storedShopOrderNo: a, redeliveredShopOrderNo: b, storedAmount: 30000, redeliveredAmount: 30000 };
    expect(recordA).toMatchObject({ status: 'discrepancy', approved: 30000, payments: [{ pgCno }] });
    expect(recordA.discrepancies).toEqual([expect.objectContaining({ kind: 'conflicting_notification', resolvedAt: null, details: expect.objectContaining(details) })]);
    // The first stored still counts: ORD-B holds no payment, and says why.
    expect(recordB).toMatchObject({ status: 'discrepancy', approved: 0, payments: [] });
    expect(recordB.discrepancies).toEqual([expect.objectContaining({ kind: 'conflicting_notification', resolvedAt: null, details: expect.objectContaining(details) })]);
    // Sent again: no second discrepancy on either.
    await step({ ...first, shopOrderNo: b });
    expect((await order(a)).discrepancies).toHaveLength(1);
    expect((await order(b)).discrepancies).toHaveLength(1);
    const opened = (await app.forwarded(8)).filter((e) => e.type === 'ledger.discrepancy').map((e) => (e.order as { shopOrderNo: string }).shopOrderNo);
    expect(opened.sort()).toEqual([a, b].sort());
    await rebuildChangesNothing();
  });

  test('an input the ledger cannot read keeps its order ledger_error through its next notifications (no expected: null, no cleared alert) until repaired and rebuilt', async () => {
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const expectation = JSON.stringify(expectationFact({ mallId: MALL, shopOrderNo }, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null }, new Date().toISOString()));
    await rawSql(app.databaseUrl, 'INSERT INTO ledger_inputs (mall_id, shop_order_no, fact_json, recorded_at) VALUES (?, ?, ?, ?)', MALL, shopOrderNo, expectation.slice(0, 50), new Date().toISOString());
    await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-3) }));
    const after = await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: nextPgCno(), cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: stamp(-2) }));
    expect(after).toMatchObject({ status: 'ledger_error', ledgerError: { error: expect.stringContaining('ledger rebuild') } });
    expect((await app.api.get('/v1/orders?status=ledger_error').expect(200)).body.orders.map((o: OrderRecord) => o.shopOrderNo)).toEqual([shopOrderNo]);
    await expect(app.stores.ledger.ledgerErrorCount()).resolves.toBe(1);

    await rawSql(app.databaseUrl, 'UPDATE ledger_inputs SET fact_json = ? WHERE shop_order_no = ?', expectation, shopOrderNo);
    await app.stores.ledger.rebuildPage(null, 100, new Date().toISOString());
    const repaired = await order(shopOrderNo);
    expect(repaired).toMatchObject({ status: 'partially_cancelled', expected: { amount: 30000, currency: 'KRW' }, approved: 30000, cancelled: 10000, remaining: 20000 });
    expect(repaired).not.toHaveProperty('ledgerError');
    await expect(app.stores.ledger.ledgerErrorCount()).resolves.toBe(0);
    await rebuildChangesNothing();
  });

  test('PUT USD 1203, approval 1203, PUT KRW 1203: 409 with the currency that stands; the order still says USD', async () => {
    const shopOrderNo = orderNo();
    await putExpectation(shopOrderNo, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    expect(await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), amount: '1203', transactionDate: stamp(-1) }))).toMatchObject({ status: 'paid' });
    const refused = await putExpectation(shopOrderNo, { amount: 1203, currency: 'KRW', method: 'card', expiresAt: null }).expect(409);
    expect(refused.body).toMatchObject({ reason: 'already_paid', amount: 1203, currency: 'USD' });
    expect(refused.body.error).toMatch(/currency/);
    expect(await order(shopOrderNo)).toMatchObject({ status: 'paid', expected: { amount: 1203, currency: 'USD' } });
    // Restating what stands is harmless.
    await putExpectation(shopOrderNo, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await rebuildChangesNothing();
  });
}

describe('red-team money stories on SQLite', () => {
  moneyStories(() => startLedgerApp());
});

describePostgres('red-team money stories on PostgreSQL', () => {
  let schema: TestSchema;
  moneyStories(async () => {
    schema = await createTestSchema();
    const app = await startLedgerApp({ databaseUrl: schema.url });
    return { ...app, close: async () => { await app.close(); await schema.drop(); } };
  });
});
