import { PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';
import { startApiHarness, tradeCreation, vanApproval, walletCancel, type ApiHarness } from './api-harness';

describe('shopTransactionId is the idempotency key', () => {
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

  it('the same key with the same body returns the stored record and sends nothing new', async () => {
    const first = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'idem-1' })).expect(200);
    // Key order is not a different body.
    const { amountInfo, memo, ...rest } = walletCancel({ shopTransactionId: 'idem-1' });
    const again = await api.post('/v1/wallet-b/cancellations', { memo, ...rest, amountInfo }).expect(200);
    expect(again.body).toEqual(first.body);
    expect(gateway.calls(PATHS.revise)).toHaveLength(1);
  });

  it('a replay after midnight keeps the stored cancelReqDate', async () => {
    // Stopped at 23:59:59 in Korea: a running clock gave the first POST only one second.
    api.freezeClock(Date.parse('2026-12-31T14:59:59.000Z'));
    const first = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'idem-date' })).expect(200);
    api.setClockOffset(Date.parse('2026-12-31T15:30:00.000Z') - Date.now());
    const again = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'idem-date' })).expect(200);
    expect(again.body.request.cancelReqDate).toBe('20261231');
    expect(again.body.request).toEqual(first.body.request);
  });

  it('the same key with a different body is 409 and sends nothing', async () => {
    await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'idem-2' })).expect(200);
    const res = await api
      .post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'idem-2', reviseTypeCode: '32', amountInfo: { currency: 'USD', totAmount: 500 } }))
      .expect(409);
    expect(res.body.error).toMatch(/already used with a different body/);
    expect(gateway.calls(PATHS.revise)).toHaveLength(1);
  });

  it('a key reused for another kind of command is 409', async () => {
    await api.post('/v1/van/cancellations', vanApproval({ shopTransactionId: 'idem-3' })).expect(200);
    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'idem-3' })).expect(409);
    expect(gateway.calls(PATHS.approve)).toHaveLength(0);
  });

  it('a replayed VAN approval is never sent twice, and a replayed trade returns its payment page', async () => {
    const body = vanApproval({ shopTransactionId: 'idem-4' });
    await api.post('/v1/van/approvals', body).expect(200);
    const again = await api.post('/v1/van/approvals', body).expect(200);
    expect(again.body.state).toBe('approved');
    expect(gateway.calls(PATHS.approve)).toHaveLength(1);

    const trade = tradeCreation({ shopTransactionId: 'idem-5' });
    const first = await api.post('/v1/wallet-a/trades', trade).expect(200);
    const replay = await api.post('/v1/wallet-a/trades', trade).expect(200);
    expect(replay.body.response.paymentPageUrl).toBe(first.body.response.paymentPageUrl);
    expect(gateway.calls(PATHS.trade)).toHaveLength(1);
  });

  it('a body without a key gets a generated one, and each such call is a new command', async () => {
    const a = await api.post('/v1/wallet-b/cancellations', walletCancel()).expect(200);
    const b = await api.post('/v1/wallet-b/cancellations', walletCancel()).expect(200);
    expect(a.body.shopTransactionId).toMatch(/^[0-9a-f]{32}$/);
    expect(a.body.shopTransactionId).not.toBe(b.body.shopTransactionId);
    expect(gateway.calls(PATHS.revise).map((c) => c.body.shopTransactionId)).toEqual([a.body.shopTransactionId, b.body.shopTransactionId]);
  });
});
