import request from 'supertest';
import { createApiApp } from '../../src/api/api-app';
import { loadConfig } from '../../src/config/env';
import { startFakeGateway, type FakeGateway } from './fake-gateway';
import { startApiHarness, tradeCreation, walletCancel, type ApiHarness } from './api-harness';

describe('the internal API refuses before sending anything', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway);
  });
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });
  afterEach(() => expect(gateway.calls()).toHaveLength(0));

  const app = () => createApiApp({ commands: api.deps, apiToken: 'test-api-token-0123456789abcdef' });

  it('answers 401 without the bearer token, or with a wrong one, and sends nothing', async () => {
    await request(app()).post('/v1/wallet-b/cancellations').send(walletCancel()).expect(401);
    const wrong = await request(app()).post('/v1/van/approvals').set('Authorization', 'Bearer nope').send({ mallId: 'T1', shopTransactionId: 'a' }).expect(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
    await request(app()).get('/v1/openapi.json').expect(401);
    expect(await api.commands.listCommands({})).toEqual([]);
  });

  it.each([
    ['a goodsName that is not English', tradeCreation({ goodsName: '커피 원두' }), 'goodsName'],
    ['a fractional amount', tradeCreation({ amountInfo: { totalAmount: 12.03, currency: 'USD' } }), 'amountInfo.totalAmount'],
    ['a zero amount', tradeCreation({ amountInfo: { totalAmount: 0 } }), 'amountInfo.totalAmount'],
    ['an over-long shopOrderNo in bytes', tradeCreation({ shopOrderNo: '주문'.repeat(11) }), 'shopOrderNo'],
  ])('answers 400 for a trade with %s', async (_name, body, path) => {
    const res = await api.post('/v1/wallet-a/trades', body).expect(400);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path);
    expect(res.body.error).toMatch(/^invalid body/);
  });

  it.each([
    ['a partial cancel without totAmount', walletCancel({ reviseTypeCode: '32' }), 'amountInfo.totAmount'],
    ['a memo over 100 bytes in EUC-KR (51 Korean characters)', walletCancel({ memo: '취'.repeat(51) }), 'memo'],
    ['an unknown reviseTypeCode', walletCancel({ reviseTypeCode: '99' }), 'reviseTypeCode'],
    ['a caller-made msgAuthValue', walletCancel({ msgAuthValue: 'abc' }), ''],
    ['a fractional partial amount', walletCancel({ reviseTypeCode: '32', amountInfo: { currency: 'USD', totAmount: '10.5' } }), 'amountInfo.totAmount'],
  ])('answers 400 for a wallet cancellation with %s', async (_name, body, path) => {
    const res = await api.post('/v1/wallet-b/cancellations', body).expect(400);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('accepts a memo of exactly 100 bytes (50 Korean characters) as far as validation goes', async () => {
    const res = await api.post('/v1/wallet-b/cancellations', walletCancel({ memo: '취'.repeat(50), mallId: '' })).expect(400);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(['mallId']);
  });

  it('answers 400 for VAN bodies without mallId or shopTransactionId, and for malformed JSON', async () => {
    await api.post('/v1/van/approvals', { amount: '1000' }).expect(400);
    await api.post('/v1/van/cancellations', { mallId: 'T0001234' }).expect(400);
    const res = await api.post('/v1/van/approvals', '{"mallId":').set('Content-Type', 'application/json').expect(400);
    expect(res.body.error).toBe('malformed JSON body');
  });
});

describe('a token no Authorization header can carry', () => {
  // HTTP drops whitespace around a header value and the bearer scheme ends the token at a space:
  // such an API_TOKEN started, and every call was 401 for ever.
  it.each([
    ['API_TOKEN', '  k3J9xQ2mZp7LwV4tR8sY  '],
    ['API_TOKEN', 'k3J9xQ2m Zp7LwV4tR8sY'],
    ['ADMIN_TOKEN', 'k3J9xQ2mZp7LwV4tR8sY\t'],
  ])('%s %j is refused at start, naming the variable, never the value', (name, token) => {
    let message = '';
    try {
      loadConfig({ [name]: token });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(new RegExp(`^invalid ${name}: must not contain whitespace`));
    expect(message).not.toContain('k3J9xQ2m');
  });
});

describe('a route whose gateway URL is unset', () => {
  it('answers 503 naming the variable and records nothing', async () => {
    const gateway = await startFakeGateway();
    const api = await startApiHarness(gateway, { GATEWAY_VAN_URL: '', GATEWAY_SECRET_KEY: '' });
    try {
      const van = await api.post('/v1/van/approvals', { mallId: 'T0001234', shopTransactionId: 'x' }).expect(503);
      expect(van.body.error).toMatch(/GATEWAY_VAN_URL is not set/);
      const cancel = await api.post('/v1/wallet-b/cancellations', walletCancel()).expect(503);
      expect(cancel.body.error).toMatch(/GATEWAY_SECRET_KEY is not set/);
      expect(await api.commands.listCommands({})).toEqual([]);
      expect(gateway.calls()).toHaveLength(0);
    } finally {
      await api.close();
      await gateway.close();
    }
  });

  it('a missing GATEWAY_SECRET_KEY is told to be the HMAC key, not a base URL', async () => {
    const gateway = await startFakeGateway();
    const api = await startApiHarness(gateway, { GATEWAY_SECRET_KEY: '' });
    try {
      const cancel = await api.post('/v1/wallet-b/cancellations', walletCancel({ mallId: 'T0001234' })).expect(503);
      expect(cancel.body.error).toBe(
        'GATEWAY_SECRET_KEY is not set; set it (or GATEWAY_SECRET_KEY_FILE, or GATEWAY_SECRET_KEY_T0001234 for this mall) to the secret key the gateway issued for msgAuthValue',
      );
      expect(gateway.calls()).toHaveLength(0);
    } finally {
      await api.close();
      await gateway.close();
    }
  });
});

describe('GET /v1/openapi.json', () => {
  it('is generated from the schemas that validate', async () => {
    const gateway = await startFakeGateway();
    const api = await startApiHarness(gateway);
    try {
      const { body } = await api.get('/v1/openapi.json').expect(200);
      expect(body.openapi).toMatch(/^3\./);
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining(['/v1/wallet-a/trades', '/v1/wallet-b/cancellations', '/v1/van/approvals', '/v1/van/cancellations', '/v1/commands/{shopTransactionId}']),
      );
      const trade = body.components.schemas.TradeCreation;
      expect(trade.required).toEqual(expect.arrayContaining(['mallId', 'shopOrderNo', 'goodsName', 'amountInfo']));
      expect(trade.properties.goodsName.pattern).toBe('^[\\x20-\\x7E]+$');
      // One shape per reviseTypeCode (32 needs totAmount) and per command (each with its states and answer).
      const { WalletFullCancellation, WalletPartialCancellation, VanApprovalRecord } = body.components.schemas;
      expect([...WalletFullCancellation.properties.reviseTypeCode.enum, ...WalletPartialCancellation.properties.reviseTypeCode.enum].sort()).toEqual(['32', '40']);
      expect(Object.keys(body.components.schemas.CommandRecord.discriminator.mapping)).toContain('van.approve');
      expect(VanApprovalRecord.properties.state.enum).toContain('net_cancel_failed');
    } finally {
      await api.close();
      await gateway.close();
    }
  });
});

describe('the database down', () => {
  it('answers 503 and sends nothing', async () => {
    const gateway = await startFakeGateway();
    const api = await startApiHarness(gateway, {}, { worker: false });
    try {
      await api.store.close();
      const res = await api.post('/v1/van/approvals', { mallId: 'T0001234', shopTransactionId: 'db-down' }).expect(503);
      expect(res.body.error).toBe('storage unavailable; try again with the same shopTransactionId');
      expect(gateway.calls()).toHaveLength(0);
    } finally {
      await api.close();
      await gateway.close();
    }
  });
});

describe('request shapes', () => {
  it('answers 415 for a body that is not JSON, and accepts keys with dots and colons', async () => {
    const gateway = await startFakeGateway();
    const api = await startApiHarness(gateway);
    try {
      const res = await api.post('/v1/van/approvals', 'mallId=T0001234').set('Content-Type', 'application/x-www-form-urlencoded').expect(415);
      expect(res.body.error).toMatch(/Content-Type: application\/json/);
      await api.post('/v1/van/approvals', { mallId: 'T0001234', shopTransactionId: 'a/b' }).expect(400);
      const ok = await api.post('/v1/van/approvals', { mallId: 'T0001234', shopTransactionId: 'ST.2026-11-22:0001' }).expect(200);
      expect(ok.body.state).toBe('approved');
      await api.get('/v1/commands/ST.2026-11-22:0001').expect(200);
      expect(gateway.calls()).toHaveLength(1);
    } finally {
      await api.close();
      await gateway.close();
    }
  });
});
