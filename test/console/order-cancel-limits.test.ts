import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextPgCno } from '../../src/simulator/notification-builders';
import { MALL, startCancelService, vanPayment, walletPayment, type CancelService } from '../commands/cancel-service';
import { PATHS, gate, startFakeGateway, type FakeGateway } from '../commands/fake-gateway';
import { HOST, ORIGIN } from './console-harness';

const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];
const CANCEL_FORM = /class="filters cancel-form"/;

/**
 * The console's Cancel holds to what is left of the payment as the internal API does: counted
 * from the moment a cancel is recorded (one transaction checks and records it), a VAN cancel like
 * a wallet-b one, nothing for a mall outside MALL_IDS, and an amount typed is never read as "all".
 */
describe('the console never cancels more than is left', () => {
  let gateway: FakeGateway;
  let service: CancelService;

  beforeEach(async () => {
    gateway = await startFakeGateway();
    service = await startCancelService(gateway);
  });
  afterEach(async () => {
    await service?.close();
    await gateway?.close();
  });

  /** A confirmation page's form fields, ready to POST. */
  async function confirmation(agent: Awaited<ReturnType<CancelService['signIn']>>['agent'], path: string, query: Record<string, string>) {
    const page = await agent.get(`${path}/cancel?${new URLSearchParams(query).toString()}`).set('Host', HOST).expect(200);
    return { page: page.text, fields: { pgCno: hidden(page.text, 'pgCno')!, type: hidden(page.text, 'type')!, amount: hidden(page.text, 'amount')!, shopTransactionId: hidden(page.text, 'shopTransactionId')! } };
  }

  test('two confirmation pages of 6,000 won on a 10,000 won wallet payment, pressed at once while the gateway holds: one is sent, the other refused', async () => {
    const { agent, csrf } = await service.signIn();
    const { pgCno, path } = await walletPayment(service, 10_000);
    const one = await confirmation(agent, path, { pgCno, type: 'partial', amount: '6,000' });
    const two = await confirmation(agent, path, { pgCno, type: 'partial', amount: '6,000' });
    const held = gate();
    gateway.script(PATHS.revise, { until: held.opened, then: { answer: { resCd: '0000', resMsg: 'SUCCESS', cancelPgCno: nextPgCno() } } });
    const press = (fields: Record<string, string>) => agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, ...fields }).then((r) => r);
    const sent = [press(one.fields), press(two.fields)];
    const refused = await Promise.race(sent);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Refused: ₩6,000 is more than the ₩4,000 left of this payment.');
    held.open();
    expect((await Promise.all(sent)).map((r) => r.status).sort()).toEqual([303, 409]);
    expect(gateway.calls(PATHS.revise).map((c) => (c.body.amountInfo as { totAmount: number }).totAmount)).toEqual([6_000]);
    // What is left counts the one sent, confirmed or not, and offers no more than that.
    expect((await agent.get(path).set('Host', HOST).expect(200)).text).toMatch(/Left of this payment <strong><span class="money">₩4,000/);
  });

  test('a UnionPay payment cancelled whole: Left ₩0, no Cancel, its VAN cancel in the record as requested, a second one refused by the console and the API', async () => {
    const { agent, csrf } = await service.signIn();
    const { shopOrderNo, pgCno, path } = await vanPayment(service, 50_000);
    expect((await agent.get(path).set('Host', HOST).expect(200)).text).toMatch(CANCEL_FORM);
    const whole = await confirmation(agent, path, { pgCno, type: 'full' });
    expect(whole.fields.amount).toBe('50000');
    await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, ...whole.fields }).expect(303);
    expect(gateway.calls(PATHS.vanCancel)).toHaveLength(1);

    const order = await service.orderWhen(shopOrderNo, (o) => o.cancellationsRequested.some((c) => c.state === 'succeeded'), 'the VAN cancel in the record');
    expect(order.cancellationsRequested).toEqual([{ shopTransactionId: whole.fields.shopTransactionId, pgCno, state: 'succeeded' }]);
    const page = (await agent.get(path).set('Host', HOST).expect(200)).text;
    expect(page).toMatch(/Left of this payment <strong><span class="money">₩0</);
    expect(page).not.toMatch(CANCEL_FORM);

    await agent.get(`${path}/cancel?pgCno=${pgCno}&type=full`).set('Host', HOST).expect(400);
    const again = await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, pgCno, type: 'full', amount: '50000', shopTransactionId: 'console-second-van' });
    expect(again.status).toBe(400);
    expect(again.text).toContain('nothing is left of this payment');
    const api = await service.api.post('/v1/van/cancellations', { mallId: MALL, shopTransactionId: 'api-second-van', pgCno });
    expect(api.status).toBe(409);
    expect(api.body).toMatchObject({ reason: 'exceeds_remaining', left: 0 });
    expect(gateway.calls(PATHS.vanCancel)).toHaveLength(1);
  });

  test('an amount typed while "all that is left" is chosen is a partial cancel of it; a full cancel is sent only for the amount its confirmation named', async () => {
    const { agent, csrf } = await service.signIn();
    const { pgCno, path } = await walletPayment(service, 10_000);
    const typed = await confirmation(agent, path, { pgCno, type: 'full', amount: '3,000' });
    expect(typed.fields).toMatchObject({ type: 'partial', amount: '3000' });
    expect(typed.page).toContain('Partial cancel (reviseTypeCode 32)');
    expect(typed.page).toMatch(/Left of this payment after it: <strong><span class="money">₩7,000/);

    // A full cancel confirmed for 10,000 won, pressed after 3,000 won of it went: refused, nothing sent.
    const full = await confirmation(agent, path, { pgCno, type: 'full' });
    expect(full.fields).toMatchObject({ type: 'full', amount: '10000' });
    await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, ...typed.fields }).expect(303);
    const stale = await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, ...full.fields });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('changed since the confirmation (₩10,000 then, ₩7,000 now)');
    expect(await service.stores.commands.getCommand(full.fields.shopTransactionId)).toBeNull();
    expect(gateway.calls(PATHS.revise).map((c) => c.body.reviseTypeCode)).toEqual(['32']);
  });
});

describe('a mall dropped from MALL_IDS after a restart', () => {
  let gateway: FakeGateway;
  let dir: string;
  let service: CancelService | undefined;

  beforeEach(async () => {
    gateway = await startFakeGateway();
    dir = mkdtempSync(join(tmpdir(), 'noti-cancel-malls-'));
  });
  afterEach(async () => {
    await service?.close();
    await gateway?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('its payments offer no Cancel, and the console refuses the cancel as the internal API does, sending nothing', async () => {
    const before = await startCancelService(gateway, { dir });
    const wallet = await walletPayment(before, 10_000);
    await before.close();
    service = await startCancelService(gateway, { dir, env: { MALL_IDS: 'T0009999' } });
    const { agent, csrf } = await service.signIn();

    const page = (await agent.get(wallet.path).set('Host', HOST).expect(200)).text;
    expect(page).not.toMatch(CANCEL_FORM);
    expect(page).toContain('This service does not serve this payment&#39;s mall (MALL_IDS)');
    const confirm = await agent.get(`${wallet.path}/cancel?pgCno=${wallet.pgCno}&type=full`).set('Host', HOST);
    expect(confirm.status).toBe(403);
    expect(confirm.text).toContain(`Refused: mall ${MALL} is not one of this service&#39;s MALL_IDS; nothing was sent.`);
    const forged = await agent.post(`${wallet.path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, pgCno: wallet.pgCno, type: 'full', amount: '10000', shopTransactionId: 'console-dropped-mall' });
    expect(forged.status).toBe(403);
    const api = await service.api.post('/v1/wallet-b/cancellations', { mallId: MALL, pgCno: wallet.pgCno, reviseTypeCode: '40', amountInfo: { currency: 'KRW' }, shopTransactionId: 'api-dropped-mall' });
    expect(api.status).toBe(403);
    expect(await service.stores.commands.getCommand('console-dropped-mall')).toBeNull();
    expect(gateway.calls(PATHS.revise)).toHaveLength(0);
  });
});
