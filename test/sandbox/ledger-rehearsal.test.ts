import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { eventually } from '../helpers/eventually';
import { startLedgerReceiver, type LedgerReceiver } from './ledger-receiver';
import { MALL_ID, post, sandboxForTests, settledNotifications, uniqueId } from './sandbox-fixtures';

interface Discrepancy { id: string; kind: string; details: Record<string, unknown>; resolvedAt: string | null }
interface Order { status: string; approved: number; cancelled: number; remaining: number; payments: Array<{ pgCno: string }>; discrepancies: Discrepancy[] }

/**
 * The payment ledger's alarms rehearsed before going live: each money scenario of the sandbox against the real
 * receiver (its notification listener and its internal API, whose gateway is the sandbox), the
 * order read back through the internal API with the discrepancy the scenario is there to raise.
 */
describe('the sandbox raises each payment-ledger alarm on purpose', () => {
  let sandbox: RunningSandbox;
  let receiver: LedgerReceiver;
  beforeEach(async () => {
    sandbox = await sandboxForTests();
    receiver = await startLedgerReceiver(sandbox.url);
  });
  afterEach(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });

  const scenario = async (body: Record<string, unknown>) => expect((await post(`${sandbox.url}/sandbox/scenarios`, body)).status).toBe(201);
  const order = async (shopOrderNo: string) => {
    const answer = await receiver.api(`/v1/orders/${MALL_ID}/${encodeURIComponent(shopOrderNo)}`);
    expect(answer.status).toBe(200);
    return answer.body as unknown as Order;
  };
  const openKinds = (o: Order) => o.discrepancies.filter((d) => d.resolvedAt === null).map((d) => d.kind);

  /** A wallet-a trade through the internal API (its amount is the order's expectation), paid on its page. */
  async function paidTrade(amount: number, notifications: number): Promise<{ shopOrderNo: string }> {
    const shopOrderNo = uniqueId('ORD-REH');
    const created = await receiver.api('/v1/wallet-a/trades', {
      mallId: MALL_ID, shopOrderNo, goodsName: 'Merino wool socks', tradeType: 'mweb', amountInfo: { totalAmount: amount, currency: 'USD' }, notifyUrl: receiver.notifyUrl,
    });
    expect(created).toMatchObject({ status: 200, body: { state: 'succeeded', response: { resCd: '0000' } } });
    const token = new URL(String((created.body.response as Record<string, unknown>).paymentPageUrl)).pathname.split('/').pop();
    const paid = await fetch(`${sandbox.url}/pay/${token}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    await settledNotifications(sandbox, notifications);
    return { shopOrderNo };
  }

  async function cancel(pgCno: string, totAmount: number): Promise<void> {
    const answer = await receiver.api('/v1/wallet-b/cancellations', { mallId: MALL_ID, pgCno, reviseTypeCode: '32', amountInfo: { currency: 'USD', totAmount } });
    expect(answer).toMatchObject({ status: 200, body: { state: 'succeeded', response: { resCd: '0000' } } });
  }

  test('without a scenario the order is paid and nothing is raised (the rehearsal\'s baseline)', async () => {
    const { shopOrderNo } = await paidTrade(1203, 1);
    const record = await order(shopOrderNo);
    expect(record).toMatchObject({ status: 'paid', approved: 1203 });
    expect(record.discrepancies).toEqual([]);
  });

  test('`pay` `other-amount`: the approval says another amount than the trade asked for, an amount_mismatch', async () => {
    await scenario({ operation: 'pay', kind: 'other-amount', amount: 120 });
    const { shopOrderNo } = await paidTrade(1203, 1);
    const record = await order(shopOrderNo);
    expect(record.status).toBe('discrepancy');
    expect(record.discrepancies).toMatchObject([{ kind: 'amount_mismatch', details: { expected: 1203, notified: 120 }, resolvedAt: null }]);
  });

  test('`pay` `pay-twice`: two approvals with two pgCnos for one order, a duplicate_payment; refunding the second one settles it', async () => {
    await scenario({ operation: 'pay', kind: 'pay-twice' });
    const { shopOrderNo } = await paidTrade(1203, 2);
    const record = await order(shopOrderNo);
    expect(record).toMatchObject({ status: 'discrepancy', approved: 2406 });
    expect(openKinds(record)).toEqual(['duplicate_payment']);

    await cancel(record.payments[1]!.pgCno, 1203);
    await settledNotifications(sandbox, 3);
    const settled = await eventually(async () => {
      const now = await order(shopOrderNo);
      return now.cancelled === 1203 && now;
    }, 10_000, 'the refund of the second payment');
    expect(openKinds(settled)).toEqual([]);
    // The first payment is whole and the second refunded in full: the order holds one whole payment.
    expect(settled.status).toBe('paid');
  });

  test('`cancel` `wrong-remainder`: the cancel\'s remainder differs from the record\'s, a remaining_mismatch once the grace period has passed', async () => {
    const { shopOrderNo } = await paidTrade(1203, 1);
    const pgCno = (await order(shopOrderNo)).payments[0]!.pgCno;
    await scenario({ operation: 'cancel', kind: 'wrong-remainder', remainAmount: 1000 });
    await cancel(pgCno, 300);
    await settledNotifications(sandbox, 2);
    const before = await eventually(async () => {
      const now = await order(shopOrderNo);
      return now.cancelled === 300 && now;
    }, 10_000, 'the cancel in the record');
    // The gateway may still be retrying an event that explains it: nothing yet.
    expect(openKinds(before)).toEqual([]);

    // The service's sweep, run at a time past the grace period (LEDGER_GRACE_SECONDS, 2100 s by default).
    await receiver.stores.ledger.sweep(new Date(Date.now() + 2200_000).toISOString());
    const after = await order(shopOrderNo);
    expect(after.status).toBe('discrepancy');
    expect(after.discrepancies).toMatchObject([{ kind: 'remaining_mismatch', details: { notified: 1000, computed: 903 } }]);
  });

  test('`cancel` `refund-fails`: an event 51 follows the cancel, a refund_transfer_failed that makes the order refund_failed', async () => {
    const { shopOrderNo } = await paidTrade(1203, 1);
    const pgCno = (await order(shopOrderNo)).payments[0]!.pgCno;
    await scenario({ operation: 'cancel', kind: 'refund-fails' });
    await cancel(pgCno, 300);
    await settledNotifications(sandbox, 3);
    const record = await eventually(async () => {
      const now = await order(shopOrderNo);
      return now.discrepancies.length > 0 && now;
    }, 10_000, 'the failed refund in the record');
    expect(record.status).toBe('refund_failed');
    expect(record.discrepancies).toMatchObject([{ kind: 'refund_transfer_failed', details: { pgCno, amount: 300 } }]);

    const listed = await receiver.api('/v1/discrepancies?open=true');
    expect(listed.body.discrepancies).toEqual([expect.objectContaining({ kind: 'refund_transfer_failed', shopOrderNo })]);
  });

  test('the scenarios are refused with a reason when a field is wrong', async () => {
    const refused = await post(`${sandbox.url}/sandbox/scenarios`, { operation: 'pay', kind: 'other-amount', amount: 0 });
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toMatch(/amount/);
  });
});
