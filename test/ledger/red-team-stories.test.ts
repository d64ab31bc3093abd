import {
  approvalNotification, basketApprovalNotification, changeNotification, depositCancelNotification, depositNotification, encodeForm, escrowNotification, nextPgCno,
  refundNotification, transferFailedNotification, unionPayFields,
} from '../../src/simulator/notification-builders';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { startLedgerApp, type LedgerApp } from './ledger-app-harness';
import { type Discrepancy, type Event, MINUTE, type OrderRecord, orderNumbers, stamp } from './story-kit';

const MALL = 'T0001234';
const orderNo = orderNumbers('ORD-RED');
const OTHER_MALL = 'T0005678';

/**
 * Payment stories a careful payments engineer would check, end to end: the gateway's documented
 * bodies POSTed to the notification listener, the order read through the internal API, the
 * ledger's events read from the queue, and a rebuild that must change nothing. Every expectation
 * is derived from the ledger's rules (docs/ledger.md), not from what the code happened to do.
 */
function redTeamStories(open: (env?: Record<string, string>) => Promise<LedgerApp>): void {
  let app: LedgerApp;
  afterEach(async () => app?.close());
  const start = async (env?: Record<string, string>) => void (app = await open(env));

  const order = async (shopOrderNo: string, mallId = MALL): Promise<OrderRecord> =>
    (await app.api.get(`/v1/orders/${mallId}/${encodeURIComponent(shopOrderNo)}`).expect(200)).body as OrderRecord;
  /** Send one notification and wait (read your writes) until the ledger has applied it, so its events follow it alone. */
  const step = async (body: Record<string, string>): Promise<OrderRecord> => {
    const ack = await app.notify(body).expect(200);
    expect(ack.body).toMatchObject({ resCd: '0000' });
    return order(body.shopOrderNo!, body.mallId);
  };
  const expect200 = async (shopOrderNo: string, body: unknown, mallId = MALL) =>
    (await app.api.put(`/v1/orders/${mallId}/${encodeURIComponent(shopOrderNo)}/expectation`, body).expect(200)).body as OrderRecord;
  const open_ = (record: OrderRecord) => record.discrepancies.filter((d) => d.resolvedAt === null);
  const openKinds = (record: OrderRecord) => open_(record).map((d) => d.kind);
  const afterGraceIso = () => new Date(Date.now() + 36 * MINUTE).toISOString();
  /** What the queue heard, one line per event: notifications by type, ledger events with their change. */
  const heard = async (n: number): Promise<string[]> => (await app.forwarded(n)).map((e) => line(e as Event));
  const line = (e: Event): string => {
    const o = e.order as { shopOrderNo: string; status: string } | undefined;
    if (e.type === 'order.status_changed') return `${o!.shopOrderNo} ${String(e.from)}>${String(e.to)}`;
    if (e.type === 'order.updated') return `${o!.shopOrderNo} updated ${o!.status}`;
    if (e.type === 'ledger.discrepancy') return `${o!.shopOrderNo} discrepancy ${(e.discrepancy as Discrepancy).kind}`;
    return `${String(e.shopOrderNo)} ${e.type}`;
  };
  /** `ledger rebuild` at `now` recomputes every order from the stored facts: it must change none. */
  const rebuildChangesNothing = async (now = new Date().toISOString()) => {
    const before = (await app.stores.ledger.listOrders({ limit: 100 })).orders;
    const page = await app.stores.ledger.rebuildPage(null, 100, now);
    expect(page).toMatchObject({ changed: 0 });
    expect((await app.stores.ledger.listOrders({ limit: 100 })).orders).toEqual(before);
  };

  test('card order: expectation, two partial cancels delivered in reverse order, then the rest: statuses and events follow each notification', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const [c1, c2, c3] = [nextPgCno(), nextPgCno(), nextPgCno()];
    expect(await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null })).toMatchObject({ status: 'awaiting_payment', approved: 0, remaining: 0 });
    expect(await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-10) }))).toMatchObject({ status: 'paid', approved: 30000, remaining: 30000 });
    // The second cancel (gateway time -5) is delivered before the first (-6).
    await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: c2, cancelAmount: '5000', amount: '5000', cancelRemainAmount: '15000', cancelDate: stamp(-5) }));
    const partly = await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: c1, cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: stamp(-6) }));
    expect(partly).toMatchObject({
      status: 'partially_cancelled', approved: 30000, cancelled: 15000, remaining: 15000, deposited: 0,
      cancels: [{ cancelPgCno: c1, pgCno, amount: 10000, remainingAfter: 20000 }, { cancelPgCno: c2, pgCno, amount: 5000, remainingAfter: 15000 }],
      discrepancies: [],
    });
    const done = await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: c3, cancelAmount: '15000', amount: '15000', cancelRemainAmount: '0', statusCode: 'TS05', cancelDate: stamp(-4) }));
    expect(done).toMatchObject({ status: 'cancelled', cancelled: 30000, remaining: 0, discrepancies: [] });
    await app.sweepAt(new Date(afterGraceIso()));
    expect(await order(shopOrderNo)).toMatchObject({ status: 'cancelled', discrepancies: [] });
    expect(await heard(9)).toEqual([
      `${shopOrderNo} null>awaiting_payment`,
      `${shopOrderNo} payment.approved`, `${shopOrderNo} awaiting_payment>paid`,
      `${shopOrderNo} payment.changed`, `${shopOrderNo} paid>partially_cancelled`,
      `${shopOrderNo} payment.changed`, `${shopOrderNo} updated partially_cancelled`,
      `${shopOrderNo} payment.changed`, `${shopOrderNo} partially_cancelled>cancelled`,
    ]);
    await rebuildChangesNothing(afterGraceIso());
  });

  test('a tampered amount: amount_mismatch with both amounts, sent after the approval; resolving it with a note records the decision and the order reads underpaid (a resolution never changes what the money is)', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    const tampered = approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '3000', transactionDate: stamp(-1) });
    const record = await step(tampered);
    expect(record).toMatchObject({ status: 'discrepancy', approved: 3000, remaining: 3000 });
    expect(open_(record)).toEqual([expect.objectContaining({ kind: 'amount_mismatch', details: { pgCno, expected: 30000, notified: 3000 }, resolvedBy: null })]);
    expect(await heard(4)).toEqual([
      `${shopOrderNo} null>awaiting_payment`, `${shopOrderNo} payment.approved`,
      `${shopOrderNo} discrepancy amount_mismatch`, `${shopOrderNo} awaiting_payment>discrepancy`,
    ]);
    const resolved = (await app.api.post(`/v1/discrepancies/${record.discrepancies[0]!.id}/resolve`, { note: 'customer paid the rest by bank transfer', by: 'kim.operator' }).expect(200)).body as OrderRecord;
    expect(resolved).toMatchObject({ status: 'underpaid', discrepancies: [{ kind: 'amount_mismatch', resolvedBy: 'kim.operator', note: 'customer paid the rest by bank transfer' }] });
    expect((await heard(5))[4]).toBe(`${shopOrderNo} discrepancy>underpaid`);
    // A redelivery of the tampered approval does not open it again.
    await step(tampered);
    expect(await order(shopOrderNo)).toMatchObject({ status: 'underpaid' });
    await rebuildChangesNothing();
  });

  test('a double payment without an expectation is a duplicate_payment; refunding the second in full closes it (resolvedBy ledger) and the order is paid', async () => {
    await start();
    const shopOrderNo = orderNo();
    const [first, second] = [nextPgCno(), nextPgCno()];
    await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: first, amount: '30000', transactionDate: stamp(-5) }));
    const doubled = await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: second, amount: '30000', transactionDate: stamp(-4) }));
    expect(doubled).toMatchObject({ status: 'discrepancy', approved: 60000, remaining: 60000 });
    expect(open_(doubled)).toEqual([expect.objectContaining({ kind: 'duplicate_payment', details: expect.objectContaining({ payments: 2, expected: null, remaining: 60000 }) })]);
    const refunded = await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno: second, cancelPgCno: nextPgCno(), cancelAmount: '30000', amount: '30000', cancelRemainAmount: '0', statusCode: 'TS05', cancelDate: stamp(-3) }));
    expect(refunded).toMatchObject({
      status: 'paid', approved: 60000, cancelled: 30000, remaining: 30000,
      payments: [{ pgCno: first, cancelled: false }, { pgCno: second, cancelled: true }],
      discrepancies: [{ kind: 'duplicate_payment', resolvedBy: 'ledger' }],
    });
    expect(refunded.discrepancies[0]!.resolvedAt).not.toBeNull();
    await app.sweepAt(new Date(afterGraceIso()));
    expect(openKinds(await order(shopOrderNo))).toEqual([]);
    await rebuildChangesNothing(afterGraceIso());
  });

  test('virtual account: awaiting_deposit, a short deposit is an amount_mismatch, its cancellation (31) takes the deposit back out', async () => {
    await start();
    const shopOrderNo = orderNo();
    const vaccount = nextPgCno();
    expect(await expect200(shopOrderNo, { amount: 50000, currency: 'KRW', method: 'vaccount', expiresAt: null })).toMatchObject({ status: 'awaiting_deposit' });
    const deposited = await step(depositNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '45000', depositDate: stamp(-3) }));
    expect(deposited).toMatchObject({ status: 'discrepancy', approved: 0, deposited: 45000, remaining: 45000, deposits: [{ pgCno: vaccount, amount: 45000, cancelled: false }] });
    expect(open_(deposited)).toEqual([expect.objectContaining({ kind: 'amount_mismatch', details: { pgCno: vaccount, expected: 50000, notified: 45000 } })]);
    const cancelled = await step(depositCancelNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '45000', cancelDate: stamp(-2) }));
    expect(cancelled).toMatchObject({ deposited: 0, cancelled: 0, remaining: 0, deposits: [{ pgCno: vaccount, amount: 45000, cancelled: true }] });
    await rebuildChangesNothing();
  });

  test('virtual account paid in full, then refunded by a 50 naming the deposit: cancelled, and the 51 before it made it refund_failed', async () => {
    await start();
    const shopOrderNo = orderNo();
    const vaccount = nextPgCno();
    await expect200(shopOrderNo, { amount: 50000, currency: 'KRW', method: 'vaccount', expiresAt: null });
    expect(await step(depositNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '50000', depositDate: stamp(-10) }))).toMatchObject({ status: 'paid', deposited: 50000, remaining: 50000, discrepancies: [] });
    const failed = await step(transferFailedNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '50000', refundDate: stamp(-8) }));
    expect(failed).toMatchObject({ status: 'refund_failed', cancelled: 0, remaining: 50000 });
    expect(open_(failed)).toEqual([expect.objectContaining({ kind: 'refund_transfer_failed', details: { pgCno: vaccount, amount: 50000, resCd: 'B102' } })]);
    const repaid = await step(refundNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '50000', refundDate: stamp(-6) }));
    expect(repaid).toMatchObject({ status: 'cancelled', deposited: 50000, cancelled: 50000, remaining: 0, discrepancies: [{ kind: 'refund_transfer_failed', resolvedBy: 'ledger' }] });
    expect(await heard(8)).toEqual([
      `${shopOrderNo} null>awaiting_deposit`,
      `${shopOrderNo} vaccount.deposited`, `${shopOrderNo} awaiting_deposit>paid`,
      `${shopOrderNo} refund.transfer_failed`, `${shopOrderNo} discrepancy refund_transfer_failed`, `${shopOrderNo} paid>refund_failed`,
      `${shopOrderNo} refund.completed`, `${shopOrderNo} refund_failed>cancelled`,
    ]);
    await rebuildChangesNothing();
  });

  test('two partial refunds of a deposit both fail to pay out (51, each naming its cancel); repeating the smaller one (50) leaves the larger refund_failed', async () => {
    await start();
    const shopOrderNo = orderNo();
    const vaccount = nextPgCno();
    const [small, large] = [nextPgCno(), nextPgCno()];
    await step(depositNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '50000', depositDate: stamp(-20) }));
    await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, cancelPgCno: small, cancelAmount: '10000', amount: '10000', cancelRemainAmount: '40000', cancelDate: stamp(-15) }));
    await step(transferFailedNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, cancelPgCno: small, amount: '10000', refundDate: stamp(-14) }));
    await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, cancelPgCno: large, cancelAmount: '20000', amount: '20000', cancelRemainAmount: '20000', cancelDate: stamp(-10) }));
    const failed = await step(transferFailedNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, cancelPgCno: large, amount: '20000', refundDate: stamp(-9) }));
    expect(failed).toMatchObject({ status: 'refund_failed', deposited: 50000, cancelled: 30000, remaining: 20000 });
    expect(open_(failed).map((d) => [d.kind, d.details.amount])).toEqual([['refund_transfer_failed', 10000], ['refund_transfer_failed', 20000]]);
    const repeated = await step(refundNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, cancelPgCno: small, amount: '10000', refundDate: stamp(-5) }));
    expect(repeated).toMatchObject({ status: 'refund_failed', cancelled: 30000, remaining: 20000 });
    expect(open_(repeated)).toEqual([expect.objectContaining({ kind: 'refund_transfer_failed', details: expect.objectContaining({ amount: 20000 }) })]);
    const both = await step(refundNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, cancelPgCno: large, amount: '20000', refundDate: stamp(-4) }));
    expect(both).toMatchObject({ status: 'partially_cancelled', cancelled: 30000, remaining: 20000 });
    expect(openKinds(both)).toEqual([]);
    await rebuildChangesNothing();
  });

  test('escrow card payment: event-40 statuses delivered out of order, the escrow is the latest by the gateway\'s time and moves no money', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-10), escrowUsed: 'Y' }));
    await step(escrowNotification({ mallId: MALL, shopOrderNo, pgCno, statusCode: 'ES03', statusMessage: '배송완료', escrowChangeDate: stamp(-3) }));
    await step(escrowNotification({ mallId: MALL, shopOrderNo, pgCno, statusCode: 'ES01', statusMessage: '배송대기', escrowChangeDate: stamp(-8) }));
    const record = await step(escrowNotification({ mallId: MALL, shopOrderNo, pgCno, statusCode: 'ES02', statusMessage: '배송중', escrowChangeDate: stamp(-5) }));
    expect(record).toMatchObject({ status: 'paid', approved: 30000, deposited: 0, remaining: 30000, escrow: { pgCno, statusCode: 'ES03' }, discrepancies: [] });
    expect(record.events).toHaveLength(4);
    await rebuildChangesNothing();
  });

  test('UnionPay (event 70, EUC-KR form): a payment like an approval, its Korean message intact, timed by its receipt', async () => {
    await start();
    const shopOrderNo = orderNo();
    const cno = nextPgCno();
    await expect200(shopOrderNo, { amount: 33000, currency: 'KRW', method: 'card', expiresAt: null });
    const ack = await app.notifyForm(encodeForm(unionPayFields({ memb_id: MALL, order_no: shopOrderNo, cno, amount: '33000' }))).expect(200);
    expect(ack.text).toBe('res_cd=0000\x1fres_msg=SUCCESS');
    const record = await order(shopOrderNo);
    expect(record).toMatchObject({ status: 'paid', approved: 33000, remaining: 33000, payments: [{ pgCno: cno, amount: 33000 }], discrepancies: [] });
    const events = await app.forwarded(3);
    expect(events.map((e) => line(e as Event))).toEqual([`${shopOrderNo} null>awaiting_payment`, `${shopOrderNo} unionpay.confirmed`, `${shopOrderNo} awaiting_payment>paid`]);
    expect((events[1]!.data as Record<string, string>).res_msg).toBe('정상처리되었습니다');
    // A tampered UnionPay amount is a mismatch too.
    const other = orderNo();
    await expect200(other, { amount: 33000, currency: 'KRW', method: 'card', expiresAt: null });
    await app.notifyForm(encodeForm(unionPayFields({ memb_id: MALL, order_no: other, amount: '3300' }))).expect(200);
    expect(openKinds(await order(other))).toEqual(['amount_mismatch']);
    await rebuildChangesNothing();
  });

  test('basket order: cancels of two products (their productPgCno) come off the basket payment; the last leaves it cancelled', async () => {
    await start();
    const shopOrderNo = orderNo();
    const basket = basketApprovalNotification(2, { mallId: MALL, shopOrderNo, amount: '30000', transactionDate: stamp(-5) });
    await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    await step(basket);
    const one = await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno: basket.productPgCno1!, cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: stamp(-4) }));
    expect(one).toMatchObject({ status: 'partially_cancelled', approved: 30000, cancelled: 10000, remaining: 20000, payments: [{ pgCno: basket.pgCno, cancelled: false }] });
    const two = await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno: basket.productPgCno2!, cancelAmount: '20000', amount: '20000', cancelRemainAmount: '0', cancelDate: stamp(-3) }));
    expect(two).toMatchObject({ status: 'cancelled', cancelled: 30000, remaining: 0, payments: [{ pgCno: basket.pgCno, cancelled: true }] });
    await app.sweepAt(new Date(afterGraceIso()));
    expect(openKinds(await order(shopOrderNo))).toEqual([]);
    await rebuildChangesNothing(afterGraceIso());
  });

  test('two malls, one order number: two orders, neither sees the other\'s money', async () => {
    await start();
    const shopOrderNo = orderNo();
    await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    await step(approvalNotification({ mallId: MALL, shopOrderNo, amount: '30000', transactionDate: stamp(-2) }));
    const other = await step(approvalNotification({ mallId: OTHER_MALL, shopOrderNo, amount: '12000', transactionDate: stamp(-1) }));
    expect(other).toMatchObject({ mallId: OTHER_MALL, status: 'paid', expected: null, approved: 12000, discrepancies: [] });
    expect(await order(shopOrderNo)).toMatchObject({ mallId: MALL, status: 'paid', approved: 30000, discrepancies: [] });
    await rebuildChangesNothing();
  });

  test('a redelivery with another amount is a conflicting_notification with both versions; the first stored still counts', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const body = approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-2) });
    await step(body);
    const record = await step({ ...body, amount: '31000' });
    expect(record).toMatchObject({ status: 'discrepancy', approved: 30000, remaining: 30000, payments: [{ pgCno, amount: 30000 }] });
    expect(open_(record)).toEqual([expect.objectContaining({ kind: 'conflicting_notification', details: expect.objectContaining({ pgCno, notiType: '10', storedAmount: 30000, redeliveredAmount: 31000 }) })]);
    // Once more with the same variant: no second discrepancy.
    expect(open_(await step({ ...body, amount: '31000' }))).toHaveLength(1);
    // The same body again is a plain redelivery: nothing new.
    expect(open_(await step(body))).toHaveLength(1);
    await rebuildChangesNothing();
  });

  test('a refused notification naming an order is a refused_notification until a valid redelivery is accepted', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const body = approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-2) });
    const refused = await app.notify({ ...body, amount: '30,000' }).expect(400);
    expect(refused.body).toMatchObject({ resCd: '5001' });
    const record = await order(shopOrderNo);
    expect(record).toMatchObject({ status: 'discrepancy', approved: 0 });
    expect(open_(record)).toEqual([expect.objectContaining({ kind: 'refused_notification', details: expect.objectContaining({ notiType: '10', pgCno }) })]);
    const accepted = await step(body);
    expect(accepted).toMatchObject({ status: 'paid', approved: 30000, discrepancies: [{ kind: 'refused_notification', resolvedBy: 'ledger' }] });
    await rebuildChangesNothing();
  });

  test('expectation after the payment: the same amount is harmless, another is 409, a different one before any payment is allowed', async () => {
    await start();
    const shopOrderNo = orderNo();
    await step(approvalNotification({ mallId: MALL, shopOrderNo, amount: '30000', transactionDate: stamp(-2) }));
    const same = await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    expect(same).toMatchObject({ status: 'paid', expected: { amount: 30000, currency: 'KRW', method: 'card', source: 'expectation' }, discrepancies: [] });
    await app.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount: 25000, currency: 'KRW', method: 'card', expiresAt: null }).expect(409);
    expect(await order(shopOrderNo)).toMatchObject({ expected: { amount: 30000 }, discrepancies: [] });
    // Before a payment the amount may change; the payment is then measured against the new one.
    const later = orderNo();
    await expect200(later, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    await expect200(later, { amount: 27000, currency: 'KRW', method: 'card', expiresAt: null });
    const paid = await step(approvalNotification({ mallId: MALL, shopOrderNo: later, amount: '27000', transactionDate: stamp(-1) }));
    expect(paid).toMatchObject({ status: 'paid', expected: { amount: 27000 }, discrepancies: [] });
    await rebuildChangesNothing();
  });

  test('expiry: an order whose expectation expired still awaits payment; a payment after expiresAt is payment_after_expiry, one before it is not', async () => {
    await start();
    const shopOrderNo = orderNo();
    const expiresAt = new Date(Date.now() - 10 * MINUTE).toISOString();
    expect(await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt })).toMatchObject({ status: 'awaiting_payment', expected: { expiresAt } });
    const late = await step(approvalNotification({ mallId: MALL, shopOrderNo, amount: '30000', transactionDate: stamp(-5) }));
    expect(late.status).toBe('discrepancy');
    expect(open_(late)).toEqual([expect.objectContaining({ kind: 'payment_after_expiry', details: expect.objectContaining({ expiresAt }) })]);
    const inTime = orderNo();
    await expect200(inTime, { amount: 30000, currency: 'KRW', method: 'card', expiresAt });
    expect(await step(approvalNotification({ mallId: MALL, shopOrderNo: inTime, amount: '30000', transactionDate: stamp(-11) }))).toMatchObject({ status: 'paid', discrepancies: [] });
    await rebuildChangesNothing();
  });

  test('a cancel delivered before its approval, the approval inside the grace period: nothing opens, after the grace period either', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const early = await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: nextPgCno(), cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: stamp(-2) }));
    expect(early).toMatchObject({ approved: 0, cancelled: 10000, discrepancies: [] });
    const late = await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-3) }));
    expect(late).toMatchObject({ status: 'partially_cancelled', approved: 30000, cancelled: 10000, remaining: 20000, discrepancies: [] });
    await app.sweepAt(new Date(afterGraceIso()));
    expect(await order(shopOrderNo)).toMatchObject({ status: 'partially_cancelled', discrepancies: [] });
    await rebuildChangesNothing(afterGraceIso());
  });

  test('a cancel whose approval is later than the grace period: over_cancel and remaining_mismatch open, and the late approval resolves both (resolvedBy ledger)', async () => {
    // A grace period of 1 s and the sweep at the real time: the approval must be received after the sweep, as it would be.
    await start({ LEDGER_GRACE_SECONDS: '1' });
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: nextPgCno(), cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: stamp(-2) }));
    // Until the grace period has passed on the real clock: a count of tries would be a time limit
    // that a fast machine runs out of before the second is over.
    let over = await order(shopOrderNo);
    for (const until = Date.now() + 30_000; open_(over).length < 2 && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await app.sweepAt(new Date());
      over = await order(shopOrderNo);
    }
    expect(over.status).toBe('discrepancy');
    // The gateway's remainder (20000) differs from the record's (-10000) too: both hold once the grace period has passed.
    expect(open_(over)).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'over_cancel', details: { approved: 0, deposited: 0, cancelled: 10000 } }),
      expect.objectContaining({ kind: 'remaining_mismatch', details: expect.objectContaining({ pgCno, notified: 20000, computed: -10000 }) }),
    ]));
    expect(open_(over)).toHaveLength(2);
    await rebuildChangesNothing();
    const late = await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-3) }));
    expect(late).toMatchObject({ status: 'partially_cancelled', approved: 30000, cancelled: 10000, remaining: 20000 });
    expect(openKinds(late)).toEqual([]);
    expect(late.discrepancies.map((d) => d.resolvedBy)).toEqual(['ledger', 'ledger']);
    const heardLines = await heard(7);
    expect(heardLines.slice(0, 2)).toEqual([`${shopOrderNo} payment.changed`, `${shopOrderNo} null>awaiting_payment`]);
    expect(heardLines.slice(2, 4).sort()).toEqual([`${shopOrderNo} discrepancy over_cancel`, `${shopOrderNo} discrepancy remaining_mismatch`]);
    expect(heardLines.slice(4)).toEqual([`${shopOrderNo} awaiting_payment>discrepancy`, `${shopOrderNo} payment.approved`, `${shopOrderNo} discrepancy>partially_cancelled`]);
    await rebuildChangesNothing();
  });

  test('the gateway\'s cancelRemainAmount disagreeing with the record is a remaining_mismatch after the grace period, not before', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-3) }));
    const cancel = changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: nextPgCno(), cancelAmount: '10000', amount: '10000', cancelRemainAmount: '25000', cancelDate: stamp(-2) });
    delete (cancel as Record<string, string>).remainAmount;
    expect(await step(cancel)).toMatchObject({ status: 'partially_cancelled', remaining: 20000, discrepancies: [] });
    await app.sweepAt(new Date(afterGraceIso()));
    const record = await order(shopOrderNo);
    expect(open_(record)).toEqual([expect.objectContaining({ kind: 'remaining_mismatch', details: expect.objectContaining({ pgCno, notified: 25000, computed: 20000 }) })]);
    await rebuildChangesNothing(afterGraceIso());
  });

  test('a refund reported as a change (20) and as completed (50) under one cancelPgCno counts once', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const cancelPgCno = nextPgCno();
    await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-3) }));
    await step(changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno, cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: stamp(-2) }));
    const record = await step(refundNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno, amount: '10000', refundDate: stamp(-1) }));
    expect(record).toMatchObject({ status: 'partially_cancelled', cancelled: 10000, remaining: 20000, cancels: [{ cancelPgCno, amount: 10000 }] });
    await app.sweepAt(new Date(afterGraceIso()));
    expect(openKinds(await order(shopOrderNo))).toEqual([]);
    await rebuildChangesNothing(afterGraceIso());
  });

  test('a UnionPay form refused for its amount names its Korean order (EUC-KR): refused_notification, resolved by the valid redelivery', async () => {
    await start();
    const shopOrderNo = `주문-${orderNo()}`;
    const cno = nextPgCno();
    await expect200(shopOrderNo, { amount: 33000, currency: 'KRW', method: 'card', expiresAt: null });
    const refused = await app.notifyForm(encodeForm(unionPayFields({ memb_id: MALL, order_no: shopOrderNo, cno, amount: '33,000' }))).expect(400);
    expect(refused.text).toBe('res_cd=5001\x1fres_msg=FAIL');
    const record = await order(shopOrderNo);
    expect(record).toMatchObject({ status: 'discrepancy', approved: 0 });
    expect(open_(record)).toEqual([expect.objectContaining({ kind: 'refused_notification', details: expect.objectContaining({ notiType: '70', pgCno: cno }) })]);
    await app.notifyForm(encodeForm(unionPayFields({ memb_id: MALL, order_no: shopOrderNo, cno, amount: '33000' }))).expect(200);
    const paid = await order(shopOrderNo);
    expect(paid).toMatchObject({ status: 'paid', approved: 33000, discrepancies: [{ kind: 'refused_notification', resolvedBy: 'ledger' }] });
    await rebuildChangesNothing();
  });

  test('the gateway retrying a refused notification (5001 every 3 minutes) is one refused_notification: an operator\'s resolution stays, the retries open nothing', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const body = { ...approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-9) }), amount: '30,000' };
    await app.notify(body).expect(400);
    await app.notify(body).expect(400);
    const refused = await order(shopOrderNo);
    expect(refused.discrepancies).toEqual([expect.objectContaining({ kind: 'refused_notification', details: expect.objectContaining({ notiType: '10', pgCno }), resolvedAt: null })]);
    // The body is wrong at the gateway: the shop settles with it and resolves with a note.
    const resolved = (await app.api.post(`/v1/discrepancies/${refused.discrepancies[0]!.id}/resolve`, { note: 'amount confirmed with the gateway by phone', by: 'kim.operator' }).expect(200)).body as OrderRecord;
    expect(resolved.status).not.toBe('discrepancy');
    await app.notify(body).expect(400);
    const retried = await order(shopOrderNo);
    expect(retried.status).toBe(resolved.status);
    expect(retried.discrepancies).toEqual([expect.objectContaining({ kind: 'refused_notification', resolvedBy: 'kim.operator' })]);
    const discrepancyEvents = (await app.forwarded(3)).filter((e) => e.type === 'ledger.discrepancy');
    expect(discrepancyEvents).toHaveLength(1);
    await rebuildChangesNothing();
  });

  test('a deposit cancellation (31) delivered before its deposit (30): the deposit is listed cancelled and nothing is deposited', async () => {
    await start();
    const shopOrderNo = orderNo();
    const vaccount = nextPgCno();
    await expect200(shopOrderNo, { amount: 45000, currency: 'KRW', method: 'vaccount', expiresAt: null });
    await step(depositCancelNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '45000', cancelDate: stamp(-1) }));
    const record = await step(depositNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '45000', depositDate: stamp(-3) }));
    expect(record).toMatchObject({ approved: 0, deposited: 0, cancelled: 0, remaining: 0, deposits: [{ pgCno: vaccount, amount: 45000, cancelled: true }] });
    expect(openKinds(record)).toEqual([]);
    await app.sweepAt(new Date(afterGraceIso()));
    expect(openKinds(await order(shopOrderNo))).toEqual([]);
    await rebuildChangesNothing(afterGraceIso());
  });

  test('payments delivered against the gateway\'s order are listed by the gateway\'s time; a resolved mismatch stays resolved and a new tampered payment opens a new one', async () => {
    await start();
    const shopOrderNo = orderNo();
    const [early, later] = [nextPgCno(), nextPgCno()];
    await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    const first = await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: later, amount: '3000', transactionDate: stamp(-2) }));
    await app.api.post(`/v1/discrepancies/${first.discrepancies[0]!.id}/resolve`, { note: 'checked with the customer', by: 'lee.operator' }).expect(200);
    const record = await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: early, amount: '2000', transactionDate: stamp(-4) }));
    expect(record.payments).toMatchObject([{ pgCno: early, amount: 2000 }, { pgCno: later, amount: 3000 }]);
    expect(record.discrepancies).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'amount_mismatch', details: { pgCno: later, expected: 30000, notified: 3000 }, resolvedBy: 'lee.operator' }),
      expect.objectContaining({ kind: 'amount_mismatch', details: { pgCno: early, expected: 30000, notified: 2000 }, resolvedAt: null }),
    ]));
    expect(record.status).toBe('discrepancy');
    await rebuildChangesNothing();
  });

  test('a redelivered partial cancel with another cancelAmount: conflicting_notification, the first cancel amount still counts', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-3) }));
    const cancel = changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: nextPgCno(), cancelAmount: '10000', amount: '10000', cancelRemainAmount: '20000', cancelDate: stamp(-2) });
    await step(cancel);
    const record = await step({ ...cancel, cancelAmount: '12000', amount: '12000', cancelRemainAmount: '18000' });
    expect(record).toMatchObject({ status: 'discrepancy', cancelled: 10000, remaining: 20000 });
    expect(open_(record)).toEqual([expect.objectContaining({
      kind: 'conflicting_notification',
      details: expect.objectContaining({ notiType: '20', storedCancelAmount: 10000, redeliveredCancelAmount: 12000, storedRemainAmount: 20000, redeliveredRemainAmount: 18000 }),
    })]);
    await rebuildChangesNothing();
  });

  test('changing the expected amount before any payment sends order.updated with the new expected amount', async () => {
    await start();
    const shopOrderNo = orderNo();
    await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    await expect200(shopOrderNo, { amount: 27000, currency: 'KRW', method: 'card', expiresAt: null });
    const events = await app.forwarded(2);
    expect(events.map((e) => line(e as Event))).toEqual([`${shopOrderNo} null>awaiting_payment`, `${shopOrderNo} updated awaiting_payment`]);
    expect(events[1]!.order).toMatchObject({ expected: 27000, currency: 'KRW' });
  });

  test('three partial cancels stamped in one gateway second, delivered out of order, with consistent remainders: no remaining_mismatch after the grace period', async () => {
    await start();
    const shopOrderNo = orderNo();
    const pgCno = nextPgCno();
    const second = stamp(-2);
    const cancel = (amount: number, remain: number) =>
      changeNotification({ mallId: MALL, shopOrderNo, pgCno, cancelPgCno: nextPgCno(), cancelAmount: String(amount), amount: String(amount), cancelRemainAmount: String(remain), cancelDate: second });
    const [a, b, c] = [cancel(5000, 25000), cancel(7000, 18000), cancel(3000, 15000)];
    await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: '30000', transactionDate: stamp(-5) }));
    await step(c);
    await step(a);
    const record = await step(b);
    expect(record).toMatchObject({ status: 'partially_cancelled', approved: 30000, cancelled: 15000, remaining: 15000, discrepancies: [] });
    await app.sweepAt(new Date(afterGraceIso()));
    expect(await order(shopOrderNo)).toMatchObject({ status: 'partially_cancelled', discrepancies: [] });
    await rebuildChangesNothing(afterGraceIso());
  });

  test('paid twice by two methods (a deposit and a card) for one expected amount: duplicate_payment; refunding the card closes it', async () => {
    await start();
    const shopOrderNo = orderNo();
    const [vaccount, card] = [nextPgCno(), nextPgCno()];
    await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'vaccount', expiresAt: null });
    await step(depositNotification({ mallId: MALL, shopOrderNo, pgCno: vaccount, amount: '30000', depositDate: stamp(-6) }));
    const twice = await step(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: card, amount: '30000', transactionDate: stamp(-5) }));
    expect(twice).toMatchObject({ status: 'discrepancy', approved: 30000, deposited: 30000, remaining: 60000 });
    expect(open_(twice)).toEqual([expect.objectContaining({ kind: 'duplicate_payment', details: expect.objectContaining({ payments: 2, expected: 30000, remaining: 60000 }) })]);
    // A full cancel that states only what remains (0): the amount is the difference.
    const full = changeNotification({ mallId: MALL, shopOrderNo, pgCno: card, cancelPgCno: nextPgCno(), cancelRemainAmount: '0', statusCode: 'TS05', cancelDate: stamp(-4) });
    delete (full as Record<string, string>).cancelAmount;
    delete (full as Record<string, string>).amount;
    const refunded = await step(full);
    expect(refunded).toMatchObject({ status: 'paid', cancelled: 30000, remaining: 30000, cancels: [{ pgCno: card, amount: 30000, remainingAfter: 30000 }], discrepancies: [{ kind: 'duplicate_payment', resolvedBy: 'ledger' }] });
    await app.sweepAt(new Date(afterGraceIso()));
    expect(openKinds(await order(shopOrderNo))).toEqual([]);
    await rebuildChangesNothing(afterGraceIso());
  });

  test('a notification that reports a failure (resCd other than 0000) moves no money but is listed', async () => {
    await start();
    const shopOrderNo = orderNo();
    await expect200(shopOrderNo, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    const record = await step(approvalNotification({ mallId: MALL, shopOrderNo, amount: '30000', resCd: '3001', resMsg: '승인거절', transactionDate: stamp(-1) }));
    expect(record).toMatchObject({ status: 'awaiting_payment', approved: 0, remaining: 0, payments: [], discrepancies: [] });
    expect(record.events).toHaveLength(1);
    await rebuildChangesNothing();
  });

  test('with LEDGER_REQUIRE_EXPECTATION=true, a payment and a deposit nobody expected are unexpected_payment', async () => {
    await start({ LEDGER_REQUIRE_EXPECTATION: 'true' });
    const card = orderNo();
    const cardPg = nextPgCno();
    const paid = await step(approvalNotification({ mallId: MALL, shopOrderNo: card, pgCno: cardPg, amount: '30000', transactionDate: stamp(-1) }));
    expect(open_(paid)).toEqual([expect.objectContaining({ kind: 'unexpected_payment', details: { pgCno: cardPg, amount: 30000 } })]);
    const vaccount = orderNo();
    const deposit = await step(depositNotification({ mallId: MALL, shopOrderNo: vaccount, amount: '45000', depositDate: stamp(-1) }));
    expect(openKinds(deposit)).toEqual(['unexpected_payment']);
    const expected = orderNo();
    await expect200(expected, { amount: 30000, currency: 'KRW', method: 'card', expiresAt: null });
    expect(await step(approvalNotification({ mallId: MALL, shopOrderNo: expected, amount: '30000', transactionDate: stamp(-1) }))).toMatchObject({ status: 'paid', discrepancies: [] });
    await rebuildChangesNothing();
  });
}

describe('red-team payment stories on SQLite', () => {
  redTeamStories((env) => startLedgerApp({ env }));
});

describePostgres('red-team payment stories on PostgreSQL', () => {
  let schema: TestSchema;
  redTeamStories(async (env) => {
    schema = await createTestSchema();
    const app = await startLedgerApp({ databaseUrl: schema.url, env });
    return { ...app, close: async () => { await app.close(); await schema.drop(); } };
  });
});
