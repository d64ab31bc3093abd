import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { ACK, scriptedReceiver, type Answer } from '../simulator/fake-gateway-peer';
import { post, sandboxForTests, settledNotifications, tradeBody, uniqueId } from './sandbox-fixtures';

describe("the sandbox delivers notifications by the gateway's rules", () => {
  let sandbox: RunningSandbox | undefined;
  let receiver: Awaited<ReturnType<typeof scriptedReceiver>> | undefined;
  afterEach(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });

  async function setUp(answer: (tryNumber: number, isForm: boolean) => Answer) {
    receiver = await scriptedReceiver(answer);
    sandbox = await sandboxForTests({ defaultNotifyUrl: receiver.url, schedule: { intervalMs: 1 } });
    return sandbox;
  }
  async function payNewTrade(s: RunningSandbox) {
    const trade = await post(`${s.url}/api/trades/wallet-a`, tradeBody());
    await fetch(`${String(trade.body.paymentPageUrl)}/pay`, { method: 'POST', redirect: 'manual' });
  }
  const unionPayApproval = (s: RunningSandbox) =>
    post(`${s.url}/smpy/vanpay/reqAprv`, { mallId: 'T0001234', shopTransactionId: uniqueId('van'), amount: '33000', cardNo: '6212-34**-****-5678' });

  test('a 5001 ack and an HTTP 503 are retried until the receiver acks 0000', async () => {
    const s = await setUp((tryNumber) => (tryNumber === 1 ? ACK.jsonFail(200) : tryNumber === 2 ? ACK.jsonFail(503) : ACK.json));
    await payNewTrade(s);
    const [approval] = await settledNotifications(s, 1);
    expect(approval).toMatchObject({ notiType: '10', state: 'acked' });
    expect(approval!.attempts.map((a) => [a.status, a.verdict])).toEqual([[200, 'refused'], [503, 'refused'], [200, 'acked']]);
    expect(receiver!.triesPerBody()).toEqual([3]);
  });

  test('a receiver that never acks is tried 10 times, then the sandbox gives up', async () => {
    const s = await setUp(() => ACK.jsonFail(500));
    await payNewTrade(s);
    const [approval] = await settledNotifications(s, 1);
    expect(approval).toMatchObject({ state: 'gave-up' });
    expect(approval!.attempts).toHaveLength(10);
    expect(receiver!.triesPerBody()).toEqual([10]);
  });

  test("a UnionPay VAN approval sends the EUC-KR form 70, and a JSON ack to it is not taken as success", async () => {
    const s = await setUp((tryNumber, isForm) => (tryNumber === 1 && isForm ? ACK.json : isForm ? ACK.form : ACK.json));
    expect((await unionPayApproval(s)).body.resCd).toBe('0000');
    const [unionPay] = await settledNotifications(s, 1);
    expect(unionPay).toMatchObject({ notiType: '70', state: 'acked' });
    expect(unionPay!.attempts.map((a) => a.verdict)).toEqual(['unexpected', 'acked']);
    expect(unionPay!.attempts[1]!.ack).toBe('res_cd=0000\x1fres_msg=SUCCESS');
  });

  test("'reply lost' resends a notification once more after its 0000 ack", async () => {
    const s = await setUp(() => ACK.json);
    await post(`${s.url}/sandbox/scenarios`, { operation: 'notify', kind: 'reply-lost' });
    await payNewTrade(s);
    await s.context.sender.idle();
    const [approval] = await settledNotifications(s, 1);
    expect(approval!.attempts.map((a) => [a.verdict, a.replyLost])).toEqual([['acked', false], ['acked', true]]);
    expect(receiver!.triesPerBody()).toEqual([2]);
  });

  test('duplicates are sent concurrently as identical bodies', async () => {
    const s = await setUp(() => ACK.json);
    await post(`${s.url}/sandbox/scenarios`, { operation: 'notify', kind: 'duplicates', copies: 4 });
    await payNewTrade(s);
    const [approval] = await settledNotifications(s, 1);
    expect(approval!.attempts.map((a) => a.copy)).toEqual([1, 2, 3, 4]);
    expect(receiver!.triesPerBody()).toEqual([4]);
  });
});
