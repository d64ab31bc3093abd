import { PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';
import { HMAC_KEY, startApiHarness, walletCancel, type ApiHarness } from './api-harness';

/** The gateway's document asks for amountInfo.totAmount on a partial cancel (32) only. */
const fullCancelAlone = () => {
  const { amountInfo: _none, ...body } = walletCancel({ reviseTypeCode: '40', shopTransactionId: 'full-no-amount' });
  return body;
};

describe('a full wallet-b cancel (40) without amountInfo', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  beforeEach(async () => {
    gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    api = await startApiHarness(gateway);
  });
  afterEach(async () => {
    await api.close();
    await gateway.close();
  });

  it('is accepted and sent to the gateway as given, without an amountInfo', async () => {
    const body = fullCancelAlone();
    expect(body).not.toHaveProperty('amountInfo');
    const res = await api.post('/v1/wallet-b/cancellations', body).expect(200);
    expect(res.body).toMatchObject({ command: 'wallet-b.cancel', shopTransactionId: 'full-no-amount', state: 'succeeded' });
    const sent = gateway.calls(PATHS.revise).map((call) => call.body);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ reviseTypeCode: '40', pgCno: body.pgCno, shopTransactionId: 'full-no-amount' });
    expect(sent[0]).not.toHaveProperty('amountInfo');
  });

  it('while a partial cancel (32) without it is still 400 naming amountInfo, and nothing is sent', async () => {
    const { amountInfo: _none, ...partial } = walletCancel({ reviseTypeCode: '32', shopTransactionId: 'partial-no-amount' });
    const res = await api.post('/v1/wallet-b/cancellations', partial).expect(400);
    expect(JSON.stringify(res.body.issues)).toContain('amountInfo');
    expect(gateway.calls(PATHS.revise)).toHaveLength(0);
  });

  it('is what the OpenAPI document says: amountInfo is required of a partial cancel only', async () => {
    const { body } = await api.get('/v1/openapi.json').expect(200);
    const schemas = body.components.schemas as Record<string, { required?: string[] }>;
    expect(schemas.WalletFullCancellation!.required).not.toContain('amountInfo');
    expect(schemas.WalletPartialCancellation!.required).toContain('amountInfo');
  });
});
