import {
  approvalNotification, changeNotification, transferFailedNotification,
} from '../../src/simulator/notification-builders';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { startLedgerApp, type LedgerApp } from './ledger-app-harness';
import { MINUTE, orderNumbers, stamp } from './story-kit';

const MALL = 'T0001234';
const orderNo = orderNumbers('ORD-E2E');
const pay = (shopOrderNo: string, pgCno: string, amount: number) =>
  approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), transactionDate: stamp() });
/** A (partial) cancel without the gateway's remainder, so only the cancelled sum is compared. */
const cancel = (shopOrderNo: string, pgCno: string, cancelPgCno: string, amount: number) => {
  const body: Record<string, string> = changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno, cancelAmount: String(amount), amount: String(amount), cancelDate: stamp() });
  delete body.cancelRemainAmount;
  return body;
};
const failedTransfer = (shopOrderNo: string, pgCno: string, amount: number) =>
  transferFailedNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), refundDate: stamp() });
const expectation = (amount: number) => ({ amount, currency: 'KRW', method: 'card', expiresAt: null });

/** The payment ledger end to end: notifications in through the notification listener, records out through the internal API. */
function ledgerEndToEnd(open: () => Promise<LedgerApp>): void {
  let app: LedgerApp;
  beforeEach(async () => {
    app = await open();
  });
  afterEach(async () => app.close());

  const order = async (shopOrderNo: string) => (await app.api.get(`/v1/orders/${MALL}/${shopOrderNo}`).expect(200)).body;
  const send = async (body: unknown) => void (await app.notify(body).expect(200)).text;
  const kinds = (record: { discrepancies: Array<{ kind: string; resolvedAt: string | null }> }) =>
    record.discrepancies.filter((d) => d.resolvedAt === null).map((d) => d.kind);

  test('an approval acked 0000 is already in its order record; an order nobody mentioned is 404', async () => {
    const no = orderNo();
    const ack = await app.notify(pay(no, 'PGE2E0001', 30000)).expect(200);
    expect(ack.text).toContain('0000');
    expect(await order(no)).toMatchObject({ mallId: MALL, shopOrderNo: no, status: 'paid', approved: 30000, remaining: 30000, expected: null });
    await app.api.get(`/v1/orders/${MALL}/NOBODY`).expect(404);
  });

  test.each(['expectation first', 'payment first'])('a payment of another amount than expected is an amount_mismatch (%s)', async (arrival) => {
    const no = orderNo();
    if (arrival === 'expectation first') await app.api.put(`/v1/orders/${MALL}/${no}/expectation`, expectation(30000)).expect(200);
    await send(pay(no, 'PGE2E0002', 3000));
    if (arrival === 'payment first') await app.api.put(`/v1/orders/${MALL}/${no}/expectation`, expectation(30000)).expect(200);
    const record = await order(no);
    expect(record.status).toBe('discrepancy');
    expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'amount_mismatch', details: expect.objectContaining({ expected: 30000, notified: 3000 }) })]);
    // Once paid, the expected amount stands.
    const refused = await app.api.put(`/v1/orders/${MALL}/${no}/expectation`, expectation(3000)).expect(409);
    expect(refused.body).toMatchObject({ reason: 'already_paid', amount: 30000 });
  });

  test.each(['in order', 'reversed'])('two approvals for one order are a duplicate_payment (%s)', async (arrival) => {
    const no = orderNo();
    const payments = [pay(no, 'PGE2E0003A', 10000), pay(no, 'PGE2E0003B', 10000)];
    for (const body of arrival === 'in order' ? payments : payments.reverse()) await send(body);
    const record = await order(no);
    expect(record).toMatchObject({ status: 'discrepancy', approved: 20000 });
    expect(kinds(record)).toEqual(['duplicate_payment']);
    // A redelivery of either changes nothing.
    await send(payments[0]);
    expect(await order(no)).toEqual(record);
  });

  test.each(['approval first', 'failure first'])('a refund whose transfer failed is refund_failed (%s)', async (arrival) => {
    const no = orderNo();
    const bodies = [pay(no, 'PGE2E0004', 12000), failedTransfer(no, 'PGE2E0004', 12000)];
    for (const body of arrival === 'approval first' ? bodies : bodies.reverse()) await send(body);
    const record = await order(no);
    expect(record.status).toBe('refund_failed');
    expect(kinds(record)).toEqual(['refund_transfer_failed']);
  });

  test.each(['cancel alone', 'cancel beyond the approval'])('an over_cancel opens only when the sweep finds the grace period passed (%s)', async (story) => {
    const no = orderNo();
    if (story === 'cancel beyond the approval') await send(pay(no, 'PGE2E0005', 5000));
    await send(cancel(no, 'PGE2E0005', 'PGE2E0005C', 8000));
    expect(kinds(await order(no))).toEqual([]);
    await app.sweepAt(new Date(Date.now() + 10 * MINUTE));
    expect(kinds(await order(no))).toEqual([]);
    await app.sweepAt(new Date(Date.now() + 36 * MINUTE));
    const record = await order(no);
    expect(record.status).toBe('discrepancy');
    expect(kinds(record)).toEqual(['over_cancel']);
  });

  test('an order the simulator made up is marked simulated, and the metric counts its discrepancies apart; a body naming the simulator is real', async () => {
    const made = orderNo();
    await app.notifySimulated(pay(made, 'PGE2E0006C', 10000)).expect(200);
    await app.notifySimulated(pay(made, 'PGE2E0006D', 10000)).expect(200);
    expect((await app.api.get(`/v1/orders/${MALL}/${made}`).expect(200)).body).toMatchObject({ status: 'discrepancy', simulated: true });
    const counted = await app.metrics.registry.getSingleMetricAsString('noti_receiver_ledger_discrepancies_open');
    expect(counted).toContain('noti_receiver_ledger_discrepancies_open{kind="duplicate_payment",simulated="true"} 1');
    expect(counted).toContain('noti_receiver_ledger_discrepancies_open{kind="duplicate_payment",simulated="false"} 0');

    const forged = orderNo();
    await send({ ...pay(forged, 'PGE2E0006E', 10000), simulator: 'noti-receiver' });
    await send({ ...pay(forged, 'PGE2E0006F', 10000), simulator: 'noti-receiver' });
    const body = (await app.api.get(`/v1/orders/${MALL}/${forged}`).expect(200)).body as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'discrepancy' });
    expect(body).not.toHaveProperty('simulated');
    expect(await app.metrics.registry.getSingleMetricAsString('noti_receiver_ledger_discrepancies_open')).toContain('noti_receiver_ledger_discrepancies_open{kind="duplicate_payment",simulated="false"} 1');
  });

  test('discrepancies are listed with their order, counted by the metric, resolved with a note, and the status change is forwarded', async () => {
    const no = orderNo();
    await send(pay(no, 'PGE2E0006A', 10000));
    // Read (which waits for the projector) before the second payment: a batch holding both would
    // rightly go from nothing straight to discrepancy, and this story is about the status in between.
    expect((await app.api.get(`/v1/orders/${MALL}/${no}`).expect(200)).body).toMatchObject({ status: 'paid' });
    await send(pay(no, 'PGE2E0006B', 10000));
    const listed = await app.api.get('/v1/discrepancies?open=true').expect(200);
    const mine = listed.body.discrepancies.find((d: { shopOrderNo: string }) => d.shopOrderNo === no);
    expect(mine).toMatchObject({ mallId: MALL, shopOrderNo: no, kind: 'duplicate_payment', resolvedAt: null });
    expect(listed.body.next).toBeNull();
    expect(await app.metrics.registry.getSingleMetricAsString('noti_receiver_ledger_discrepancies_open')).toContain('noti_receiver_ledger_discrepancies_open{kind="duplicate_payment",simulated="false"} 1');
    const byStatus = await app.api.get('/v1/orders?status=discrepancy').expect(200);
    expect(byStatus.body.orders.map((o: { shopOrderNo: string }) => o.shopOrderNo)).toContain(no);

    await app.api.post(`/v1/discrepancies/${mine.id}/resolve`, { note: '' , by: 'kim' }).expect(400);
    const resolved = await app.api.post(`/v1/discrepancies/${mine.id}/resolve`, { note: 'second payment refunded by hand', by: 'kim' }).expect(200);
    expect(resolved.body).toMatchObject({ status: 'paid', discrepancies: [{ id: mine.id, resolvedBy: 'kim', note: 'second payment refunded by hand' }] });
    await app.api.post('/v1/discrepancies/dsc_nothing/resolve', { note: 'x', by: 'kim' }).expect(404);
    expect((await app.api.get('/v1/discrepancies?open=true').expect(200)).body.discrepancies.find((d: { id: string }) => d.id === mine.id)).toBeUndefined();
    expect((await app.stores.store.listAudit(10, 0)).find((a) => a.subject === mine.id)).toMatchObject({ action: 'resolved discrepancy', actor: 'kim (internal API)' });

    // Two notifications, then the ledger's events: paid, the discrepancy, discrepancy, and back to paid.
    const forwarded = await app.forwarded(6);
    const ledgerEvents = forwarded.filter((e) => e.type === 'ledger.discrepancy' || e.type === 'order.status_changed');
    expect(ledgerEvents.map((e) => [e.type, e.to ?? null])).toEqual([
      ['order.status_changed', 'paid'], ['ledger.discrepancy', null], ['order.status_changed', 'discrepancy'], ['order.status_changed', 'paid'],
    ]);
    expect(ledgerEvents[1]).toMatchObject({ discrepancy: { id: mine.id, kind: 'duplicate_payment' }, order: { mallId: MALL, shopOrderNo: no, approved: 20000 } });
  });

  test('an expectation that is not JSON is 415, as every body of the internal API', async () => {
    const answer = await app.api.put(`/v1/orders/${MALL}/X/expectation`, 'amount=1').set('Content-Type', 'text/plain').expect(415);
    expect(answer.body.error).toContain('application/json');
  });

  test('orders are listed as they were first seen, a page at a time through next', async () => {
    const [first, second, third] = ['ORD-LIST-C', 'ORD-LIST-A', 'ORD-LIST-B'];
    for (const [i, no] of [first, second, third].entries()) await send(pay(no, `PGE2E001${i}`, 1000));
    const page = (await app.api.get('/v1/orders?limit=2').expect(200)).body;
    expect(page.orders.map((o: { shopOrderNo: string }) => o.shopOrderNo)).toEqual([first, second]);
    const rest = (await app.api.get(`/v1/orders?limit=2&after=${page.next}`).expect(200)).body;
    expect(rest).toEqual({ orders: [expect.objectContaining({ shopOrderNo: third })], next: null });
  });

  test('the list routes refuse what they cannot read', async () => {
    await app.api.get('/v1/orders?status=shipped').expect(400);
    await app.api.get('/v1/orders?after=not-a-cursor').expect(400);
    // A cursor of the list before migration 011 (by mall and number) names no place in this one.
    const byNumber = Buffer.from(JSON.stringify({ mallId: MALL, shopOrderNo: 'ORD-1' })).toString('base64url');
    await app.api.get(`/v1/orders?after=${byNumber}`).expect(400);
    await app.api.get('/v1/discrepancies?open=maybe').expect(400);
    await app.api.put(`/v1/orders/${MALL}/X/expectation`, { amount: 1.5, currency: 'KRW', method: 'card', expiresAt: null }).expect(400);
  });
}

describe('the payment ledger end to end on SQLite', () => {
  ledgerEndToEnd(() => startLedgerApp());
});

describePostgres('the payment ledger end to end on PostgreSQL', () => {
  let schema: TestSchema;
  ledgerEndToEnd(async () => {
    schema = await createTestSchema();
    const app = await startLedgerApp({ databaseUrl: schema.url });
    return { ...app, close: async () => { await app.close(); await schema.drop(); } };
  });
});
