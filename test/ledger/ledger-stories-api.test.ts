import {
  approvalNotification, basketApprovalNotification, changeNotification, depositNotification, escrowNotification, nextPgCno, refundNotification, transferFailedNotification,
} from '../../src/simulator/notification-builders';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { startLedgerApp, type LedgerApp } from './ledger-app-harness';
import { MINUTE, orderNumbers, stamp } from './story-kit';

const MALL = 'T0001234';
const orderNo = orderNumbers('ORD-STORY');
const without = (body: Record<string, string>, ...names: string[]) => Object.fromEntries(Object.entries(body).filter(([name]) => !names.includes(name)));

/**
 * Payment stories the ledger once misread, end to end: the gateway's notifications POSTed to the
 * notification listener, the order read through the internal API.
 */
function ledgerStories(open: () => Promise<LedgerApp>): void {
  let app: LedgerApp;
  beforeEach(async () => {
    app = await open();
  });
  afterEach(async () => app.close());

  const order = async (shopOrderNo: string) => (await app.api.get(`/v1/orders/${MALL}/${encodeURIComponent(shopOrderNo)}`).expect(200)).body;
  const send = async (body: unknown) => void (await app.notify(body).expect(200)).text;
  const openKinds = (record: { discrepancies: Array<{ kind: string; resolvedAt: string | null }> }) => record.discrepancies.filter((d) => d.resolvedAt === null).map((d) => d.kind);
  const afterGrace = () => app.sweepAt(new Date(Date.now() + 36 * MINUTE));

  test('a virtual-account deposit refunded by a 50 that names it (depositPgCno) but carries no amount: the deposit is refunded, nothing remains', async () => {
    const shopOrderNo = orderNo();
    const vaccount = nextPgCno();
    await send(depositNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '50000', depositDate: stamp(-3) }));
    await send(escrowNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, statusCode: 'ES05', statusMessage: '구매거절', escrowChangeDate: stamp(-2) }));
    await send(without(refundNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), depositPgCno: vaccount, refundDate: stamp(-1) }), 'amount'));
    const record = await order(shopOrderNo);
    expect(record).toMatchObject({ status: 'cancelled', deposited: 50000, cancelled: 50000, remaining: 0, cancels: [{ amount: 50000, remainingAfter: 0 }], discrepancies: [] });
  });

  test('a 50 without an amount that names nothing the order knows is an unknown_refund_amount', async () => {
    const shopOrderNo = orderNo();
    await send(approvalNotification({ mallId: MALL, shopOrderNo, amount: '30000', transactionDate: stamp(-2) }));
    await send(without(refundNotification({ mallId: MALL, shopOrderNo, pgCno: nextPgCno(), refundDate: stamp(-1) }), 'amount'));
    const record = await order(shopOrderNo);
    expect(record.status).toBe('discrepancy');
    expect(openKinds(record)).toEqual(['unknown_refund_amount']);
  });

  test.each([0, 1])('two partial cancels stamped in the same second with consistent remainders open nothing after the grace period (ids swapped: %i)', async (swap) => {
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const cancelPgCnos = [nextPgCno(), nextPgCno()];
    if (swap) cancelPgCnos.reverse();
    const sameSecond = stamp(-1);
    const cancel = (cancelPgCno: string, amount: number, remainAmount: number) =>
      changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno, cancelAmount: String(amount), amount: String(amount), cancelRemainAmount: String(remainAmount), cancelDate: sameSecond });
    await send(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-2) }));
    await send(cancel(cancelPgCnos[0]!, 10000, 20000));
    await send(cancel(cancelPgCnos[1]!, 5000, 15000));
    await afterGrace();
    expect(await order(shopOrderNo)).toMatchObject({ status: 'partially_cancelled', remaining: 15000, discrepancies: [] });
  });

  test('a basket product\'s cancel is compared with the basket payment\'s remainder: no remaining_mismatch after the grace period', async () => {
    const shopOrderNo = orderNo();
    const basket = basketApprovalNotification(2, { mallId: MALL, shopOrderNo, amount: '30000', transactionDate: stamp(-2) });
    await send(basket);
    await send(changeNotification({ mallId: MALL, shopOrderNo, pgCno: basket.productPgCno1!, cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: stamp(-1) }));
    await afterGrace();
    expect(await order(shopOrderNo)).toMatchObject({ status: 'partially_cancelled', remaining: 20000, discrepancies: [] });
  });

  test('pay, cancel in full, pay again with a new pgCno reads paid, the first payment listed as cancelled', async () => {
    const shopOrderNo = orderNo();
    const [first, second] = [nextPgCno(), nextPgCno()];
    await send(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: first, amount: '10000', transactionDate: stamp(-3) }));
    await send(changeNotification({ mallId: MALL, shopOrderNo, pgCno: first, cancelAmount: '10000', amount: '10000', cancelRemainAmount: '0', statusCode: 'TS05', cancelDate: stamp(-2) }));
    await send(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: second, amount: '10000', transactionDate: stamp(-1) }));
    expect(await order(shopOrderNo)).toMatchObject({
      status: 'paid', approved: 20000, cancelled: 10000, remaining: 10000,
      payments: [{ pgCno: first, cancelled: true }, { pgCno: second, cancelled: false }],
    });
  });

  test('an escrow deposit notified only as event 40 (ES04) is the deposit', async () => {
    const shopOrderNo = orderNo();
    await app.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount: 45000, currency: 'KRW', method: 'vaccount', expiresAt: null }).expect(200);
    await send(escrowNotification({ mallId: MALL, shopOrderNo, statusCode: 'ES04', statusMessage: '입금확인', amount: '45000', escrowChangeDate: stamp(-1) }));
    expect(await order(shopOrderNo)).toMatchObject({ status: 'paid', deposited: 45000, remaining: 45000, deposits: [{ amount: 45000, cancelled: false }], discrepancies: [] });
  });

  test('an undated 51 is settled by the 50 received after it, whatever the 50\'s own date', async () => {
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    await send(depositNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '45000', depositDate: stamp(-5) }));
    await send(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelAmount: '45000', amount: '45000', cancelRemainAmount: '0', cancelDate: stamp(-4) }));
    await send(without(transferFailedNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '45000' }), 'refundDate'));
    expect((await order(shopOrderNo)).status).toBe('refund_failed');
    // The repeated refund's own time is a minute ago; the 51 is dated by its receipt, just now.
    await send(refundNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '45000', refundDate: stamp(-1) }));
    const record = await order(shopOrderNo);
    expect(record.status).toBe('cancelled');
    expect(openKinds(record)).toEqual([]);
  });

  test('moving expiresAt later after a late payment is 409 already_paid, and the payment stays late', async () => {
    const shopOrderNo = orderNo();
    const expiresAt = new Date(Date.now() - 10 * MINUTE).toISOString();
    await app.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount: 30000, currency: 'KRW', method: 'card', expiresAt }).expect(200);
    await send(approvalNotification({ mallId: MALL, shopOrderNo, amount: '30000', transactionDate: stamp(-1) }));
    const later = new Date(Date.now() + 60 * MINUTE).toISOString();
    const refused = await app.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: later }).expect(409);
    expect(refused.body).toMatchObject({ reason: 'already_paid', amount: 30000, expiresAt });
    const record = await order(shopOrderNo);
    expect(record.expected.expiresAt).toBe(expiresAt);
    expect(openKinds(record)).toEqual(['payment_after_expiry']);
  });

  test('an expectation\'s shopOrderNo is measured in EUC-KR bytes, as a notification\'s: 20 Hangul fit, 21 do not', async () => {
    const expectation = { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null };
    const tooLong = '주'.repeat(21);
    const refused = await app.api.put(`/v1/orders/${MALL}/${encodeURIComponent(tooLong)}/expectation`, expectation).expect(400);
    expect(JSON.stringify(refused.body)).toContain('40 bytes');
    const fits = '주'.repeat(20);
    await app.api.put(`/v1/orders/${MALL}/${encodeURIComponent(fits)}/expectation`, expectation).expect(200);
    await send(approvalNotification({ mallId: MALL, shopOrderNo: fits, amount: '12000', transactionDate: stamp(-1) }));
    expect(await order(fits)).toMatchObject({ status: 'paid', approved: 12000, expected: { amount: 12000 } });
  });
}

describe('payment stories end to end on SQLite', () => {
  ledgerStories(() => startLedgerApp());
});

describePostgres('payment stories end to end on PostgreSQL', () => {
  let schema: TestSchema;
  ledgerStories(async () => {
    schema = await createTestSchema();
    const app = await startLedgerApp({ databaseUrl: schema.url });
    return { ...app, close: async () => { await app.close(); await schema.drop(); } };
  });
});
