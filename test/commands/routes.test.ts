import { eventually } from '../helpers/eventually';
import { PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';
import { startApiHarness, TEST_TIMEOUT_MS, tradeCreation, vanApproval, walletCancel, type ApiHarness } from './api-harness';

describe('the four internal API routes end to end', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  beforeEach(async () => {
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway);
  });
  afterEach(async () => {
    await api.close();
    await gateway.close();
  });

  it('a wallet-a trade succeeds with its payment page URL, and a native one renders as a QR image', async () => {
    const res = await api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'trade-1' })).expect(200);
    expect(res.body).toMatchObject({ command: 'wallet-a.create', shopTransactionId: 'trade-1', state: 'succeeded', attempts: 1 });
    expect(res.body.response.paymentPageUrl).toBe('weixin://wxpay/bizpayurl?pr=trade-1');
    expect(gateway.calls(PATHS.trade)[0]!.body).toMatchObject({ notifyUrl: 'https://shop.example.com/notifications', shopTransactionId: 'trade-1' });

    const qr = await api.get('/v1/wallet-a/trades/trade-1/qr.svg').expect(200);
    expect(qr.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(qr.body ?? qr.text)).toContain('<svg');
  });

  it('a trade whose answer names another shopTransactionId fails, and its resDetailMsg is kept URL-decoded', async () => {
    gateway.script(PATHS.trade, { answer: { resCd: '0000', resMsg: 'OK', shopTransactionId: 'someone-else', resDetailMsg: 'Order%20accepted%3A%20ok' } });
    const res = await api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'trade-2' })).expect(200);
    expect(res.body.state).toBe('failed');
    expect(res.body.response.resDetailMsg).toBe('Order accepted: ok');
  });

  it('a trade that times out and is reset is resent with the same body within the call, then answered 200', async () => {
    gateway.script(PATHS.trade, { hang: true }, { reset: true });
    const res = await api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'trade-3' })).expect(200);
    expect(res.body).toMatchObject({ state: 'succeeded', attempts: 3 });
    const bodies = gateway.calls(PATHS.trade).map((call) => call.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  it('a trade gives up after 1 + 3 resends without an answer', async () => {
    gateway.script(PATHS.trade, { hang: true }, { reset: true }, { raw: 'oops' }, { hang: true }, { hang: true });
    // Two time-outs may outlast the POST's own bound (one time-out plus a margin): then it answers 202 and the record ends the same.
    const res = await api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'trade-4' }));
    expect([200, 202]).toContain(res.status);
    const done = await eventually(async () => {
      const command = (await api.get('/v1/commands/trade-4').expect(200)).body as { state: string };
      return command.state !== 'pending' && command;
    });
    expect(done).toMatchObject({ state: 'failed', attempts: 4, lastError: `time-out after ${TEST_TIMEOUT_MS} ms` });
    expect(gateway.calls(PATHS.trade)).toHaveLength(4);
    await api.get('/v1/wallet-a/trades/trade-4/qr.svg').expect(409);
  });

  it('a wallet-b cancellation answered 0000 succeeds at once', async () => {
    const res = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'cancel-1' })).expect(200);
    expect(res.body).toMatchObject({ command: 'wallet-b.cancel', state: 'succeeded', attempts: 1, lastError: null });
    expect(res.body.request).toMatchObject({ cancelReqDate: expect.stringMatching(/^\d{8}$/), msgAuthValue: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('a VAN approval answered 0000 is approved and never net-cancelled', async () => {
    const res = await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'van-ok' })).expect(200);
    expect(res.body).toMatchObject({ command: 'van.approve', state: 'approved', attempts: 1 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(gateway.calls(PATHS.approve)).toHaveLength(1);
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(0);
  });

  it('a VAN approval refused by the gateway is declined, not net-cancelled', async () => {
    gateway.script(PATHS.approve, { answer: { resCd: 'V101', resMsg: 'card refused' } });
    const res = await api.post('/v1/van/approvals', vanApproval()).expect(200);
    expect(res.body.state).toBe('declined');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(0);
  });

  it('a VAN cancellation passes its body through and succeeds', async () => {
    const body = vanApproval({ shopTransactionId: 'van-cancel-1', orgTranNo: 'A123' });
    const res = await api.post('/v1/van/cancellations', body).expect(200);
    expect(res.body).toMatchObject({ command: 'van.cancel', state: 'succeeded' });
    expect(gateway.calls(PATHS.vanCancel)[0]!.body).toEqual(body);
  });

  it('a VAN body reaches the gateway as given, a field named __proto__ included', async () => {
    const raw = '{"mallId":"T0001234","shopTransactionId":"van-proto","amount":"1000","__proto__":{"a":1},"constructor":"x"}';
    await api.post('/v1/van/approvals', raw).set('Content-Type', 'application/json').expect(200);
    const sent = gateway.calls(PATHS.approve).find((call) => (call.body as { shopTransactionId?: string }).shopTransactionId === 'van-proto')!;
    expect(Object.keys(sent.body as object)).toEqual(['mallId', 'shopTransactionId', 'amount', '__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(sent.body, '__proto__')?.value).toEqual({ a: 1 });
    expect(({} as { a?: number }).a).toBeUndefined();
  });

  it('GET /v1/commands/<id> and ?state= read the records back', async () => {
    await api.post('/v1/van/cancellations', vanApproval({ shopTransactionId: 'read-1' })).expect(200);
    gateway.script(PATHS.vanCancel, { answer: { resCd: 'X001', resMsg: 'no' } });
    await api.post('/v1/van/cancellations', vanApproval({ shopTransactionId: 'read-2' })).expect(200);
    const one = await api.get('/v1/commands/read-1').expect(200);
    expect(one.body).toMatchObject({ shopTransactionId: 'read-1', state: 'succeeded' });
    const failed = await api.get('/v1/commands?state=failed').expect(200);
    expect(failed.body.commands.map((c: { shopTransactionId: string }) => c.shopTransactionId)).toEqual(['read-2']);
    await api.get('/v1/commands/unknown').expect(404);
  });
});
