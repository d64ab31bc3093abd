import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiHarness, tradeCreation, vanApproval, walletCancel, type ApiHarness } from './api-harness';
import { startFakeGateway, type FakeGateway } from './fake-gateway';

const SERVED = 'T0001234';
const OTHER = 'OTHER001';
const expectation = { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null };

describe('MALL_IDS on the internal API', () => {
  let gateway: FakeGateway;
  let dir: string;
  let api: ApiHarness;
  beforeEach(async () => {
    gateway = await startFakeGateway();
    dir = mkdtempSync(join(tmpdir(), 'noti-malls-'));
  });
  afterEach(async () => {
    await api.close();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a call or an expectation for a mall not in MALL_IDS with 403, sending and storing nothing', async () => {
    api = await startApiHarness(gateway, { MALL_IDS: `${SERVED},T0009999` }, { dir });
    const refusals: Array<[string, object]> = [
      ['/v1/wallet-a/trades', tradeCreation({ mallId: OTHER, shopTransactionId: 'other-trade' })],
      ['/v1/wallet-b/cancellations', walletCancel({ mallId: OTHER, shopTransactionId: 'other-cancel' })],
      ['/v1/van/approvals', vanApproval({ mallId: OTHER, shopTransactionId: 'other-approval' })],
      ['/v1/van/cancellations', vanApproval({ mallId: OTHER, shopTransactionId: 'other-van-cancel' })],
    ];
    for (const [path, body] of refusals) {
      const res = await api.post(path, body).expect(403);
      expect(res.body.error).toBe(`mallId "${OTHER}" is not one of this service's MALL_IDS (${SERVED}, T0009999); nothing was sent or stored`);
    }
    const put = await api.put(`/v1/orders/${OTHER}/ORD-1/expectation`, expectation).expect(403);
    expect(put.body.error).toContain('MALL_IDS');

    expect(gateway.calls()).toHaveLength(0);
    expect(await api.commands.listCommands({})).toEqual([]);
    await api.get(`/v1/orders/${OTHER}/ORD-1`).expect(404);
    // The served mall is untouched by the rule.
    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'served-approval' })).expect(200);
    await api.put(`/v1/orders/${SERVED}/ORD-1/expectation`, expectation).expect(200);
  });

  it("reads another mall's records as unknown once MALL_IDS no longer lists it: 404, and left out of lists", async () => {
    api = await startApiHarness(gateway, {}, { dir });
    await api.post('/v1/van/approvals', vanApproval({ mallId: OTHER, shopTransactionId: 'before-other' })).expect(200);
    await api.post('/v1/wallet-a/trades', tradeCreation({ mallId: OTHER, shopTransactionId: 'before-trade' })).expect(200);
    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'before-served' })).expect(200);
    await api.put(`/v1/orders/${OTHER}/ORD-9/expectation`, expectation).expect(200);
    await api.put(`/v1/orders/${SERVED}/ORD-9/expectation`, expectation).expect(200);
    await api.stop();

    api = await startApiHarness(gateway, { MALL_IDS: SERVED }, { dir });
    await api.get('/v1/commands/before-other').expect(404);
    await api.get('/v1/wallet-a/trades/before-trade/qr.svg').expect(404);
    await api.get('/v1/commands/before-served').expect(200);
    const commands = (await api.get('/v1/commands').expect(200)).body.commands as Array<{ shopTransactionId: string }>;
    expect(commands.map((c) => c.shopTransactionId)).toEqual(['before-served']);
    await api.get(`/v1/orders/${OTHER}/ORD-9`).expect(404);
    await api.get(`/v1/orders/${SERVED}/ORD-9`).expect(200);
    const orders = (await api.get('/v1/orders').expect(200)).body.orders as Array<{ mallId: string }>;
    expect(orders.map((o) => o.mallId)).toEqual([SERVED]);
    // A replay of the other mall's call is refused too, not answered from the record.
    await api.post('/v1/van/approvals', vanApproval({ mallId: OTHER, shopTransactionId: 'before-other' })).expect(403);
  });
});

describe('bodies the internal API refuses with a clear 400', () => {
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

  it.each([
    ['the VAN pass-through', '/v1/van/approvals'],
    ['a VAN cancellation', '/v1/van/cancellations'],
    ['a trade', '/v1/wallet-a/trades'],
    ['a wallet-b cancellation', '/v1/wallet-b/cancellations'],
    ['a resolution', '/v1/discrepancies/dsc_x/resolve'],
  ])('a 5,000-deep JSON body on %s is a 400 with a JSON error, nothing sent, no stack trace', async (_what, path) => {
    const deep = `{"mallId":"${SERVED}","shopTransactionId":"deep-1","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await api.post(path, deep).set('Content-Type', 'application/json').expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: expect.stringContaining('nested deeper than 32 levels'), issues: [{ path: '', message: expect.stringContaining('nested deeper than 32 levels') }] });
    expect(JSON.stringify(res.body)).not.toMatch(/\bat \w|RangeError|\.ts:/);
    expect(gateway.calls()).toHaveLength(0);
    expect(api.logs().filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('a deep body on the expectation PUT is refused the same way', async () => {
    const deep = `{"amount":1,"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const res = await api.put(`/v1/orders/${SERVED}/ORD-1/expectation`, deep).set('Content-Type', 'application/json').expect(400);
    expect(res.body.error).toContain('nested deeper than 32 levels');
  });

  it.each([
    ['the ledger\'s own name', 'ledger', 'reserved for the ledger'],
    ['the ledger\'s name in capitals', 'LEDGER', 'reserved for the ledger'],
    ['the bootstrap operator', 'admin', 'reserved for the bootstrap operator'],
    ['admin and a combining grapheme joiner (U+034F)', 'admin\u034f', 'reserved for the bootstrap operator'],
    ['ledger and a variation selector (U+FE0F)', 'ledger\ufe0f', 'reserved for the ledger'],
    ['admin and a Hangul filler (U+3164)', 'admin\u3164', 'reserved for the bootstrap operator'],
    ['a Hangul choseong filler (U+115F) and admin', '\u115fadmin', 'reserved for the bootstrap operator'],
    ['admin in full-width letters', 'ａｄｍｉｎ', 'reserved for the bootstrap operator'],
    ['admin with a capital', 'Admin', 'reserved for the bootstrap operator'],
    ['admin with a Cyrillic а (U+0430)', '\u0430dmin', 'reserved for the bootstrap operator'],
    ['ledger with a Cyrillic е (U+0435)', 'l\u0435dger', 'reserved for the ledger'],
    ['ADMIN with a Cyrillic А and М', '\u0410D\u041cIN', 'reserved for the bootstrap operator'],
    ['admin with a dotless ı (U+0131)', 'adm\u0131n', 'reserved for the bootstrap operator'],
    ['a halfwidth Hangul filler (U+FFA0) in a name', '김\uffa0민지', 'invisible characters'],
    ['a variation selector in a name', 'kim\ufe0f', 'invisible characters'],
    ['an ideographic space in a name', '김 민지'.replace(' ', '\u3000'), 'whitespace other than the plain space'],
    ['a right-to-left override', 'kim\u202Egnp.exe', 'control or invisible formatting'],
    ['an escape sequence', 'kim\u001b[31mroot', 'control or invisible formatting'],
    ['a bell', 'kim\u0007', 'control or invisible formatting'],
    ['a newline', 'kim\nroot', 'control or invisible formatting'],
    ['255 characters', 'k'.repeat(255), 'at most 254 characters'],
    ['nothing', '', 'must not be empty'],
  ])('a resolution "by" holding %s is refused with 400 naming the rule', async (_what, by, reason) => {
    const res = await api.post('/v1/discrepancies/dsc_0f1e2d3c4b5a69788796a5b4c3d2e1f0/resolve', { note: 'refunded by hand', by }).expect(400);
    expect(res.body.issues).toEqual([{ path: 'by', message: expect.stringContaining(reason) }]);
  });

  it('a resolution by a well-formed name reaches the ledger (404 for an unknown discrepancy)', async () => {
    await api.post('/v1/discrepancies/dsc_0f1e2d3c4b5a69788796a5b4c3d2e1f0/resolve', { note: 'refunded by hand', by: '김민지 (kim@shop.example)' }).expect(404);
  });
});
