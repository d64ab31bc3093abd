import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import { html } from '../../src/console/html';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleSessions } from './console-harness';

/** Test card numbers (they pass the Luhn check) and card secrets. */
const CARD_DATA = ['4111+1111+1111+1111', '4111 1111 1111 1111', '4111111111111111', '5555555555554444', '4012888888881881', '378282246310005', '6011000990139424', '28121010000012300000', '&quot;cvc&quot;: &quot;123', 'cvc=123', 'HONG/GILDONG'];

describe('console: card numbers and card secrets masked on every page, in every field', () => {
  let dir: string;
  let stores: Stores;
  let agent: request.Agent;
  let notify: ReturnType<typeof request>;
  const page = async (path: string) => (await agent.get(path).set('Host', HOST).expect(200)).text;
  const expectNoCardData = (text: string) => {
    for (const secret of CARD_DATA) expect(text).not.toContain(secret);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-console-cards-'));
    stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`);
    const config = loadConfig({ EXTRA_ALLOWED_IPS: '127.0.0.1' });
    const receiver = createApp({ config, store: stores.store, logger: createLogger({ level: 'error', silent: true }), metrics: createMetrics() });
    notify = request(receiver);
    const post = (body: string, type: string) => notify.post(config.NOTIFY_PATH).set('Content-Type', type).send(body);
    const approval = approvalNotification({
      shopOrderNo: 'ORD-4012888888881881',
      shopValue1: '4111 1111 1111 1111',
      shopValue2: JSON.stringify({ card: { number: '378282246310005', cvc: '123' } }),
      resMsg: 'card 5555555555554444 approved',
      someUnknownField: 'pan 5555555555554444',
    } as Record<string, string>);
    await post(JSON.stringify(approval), 'application/json').expect(200);
    // A redelivery with another card in shopValue1: a conflict, shown field by field.
    await post(JSON.stringify({ ...approval, shopValue1: '6011-0009-9013-9424' }), 'application/json').expect(200);
    await post('card 6011000990139424 cvc=123', 'text/plain').expect(415);
    // An event-70 form in a charset the receiver does not know (EUC-KR bytes for the name): kept, shown as text.
    const name = [...iconv.encode('김영희', 'cp949')].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    await post(`res_cd=0000&noti_type=70&depositName=${name}&CVC=123&Track2=4012888888881881%3D2812101&pan=4111+1111+1111+1111`, 'application/x-www-form-urlencoded; charset=x-nonesuch')
      .expect((res) => expect(res.status).toBeGreaterThanOrEqual(400));
    const at = new Date().toISOString();
    const vanRequest = { mallId: 'T0001234', shopTransactionId: 'van-cards', amount: '15000', track2: '4111111111111111=28121010000012300000', cvc: '123', track1: 'B4111111111111111^HONG/GILDONG^2812' };
    await stores.commands.createCommand({ kind: 'van.approve', shopTransactionId: 'van-cards', mallId: 'T0001234', bodyHash: 'h', request: vanRequest, state: 'pending', at, owner: 'test', leaseUntil: Date.now() + 60_000 });
    const admin = createAdminApp({
      store: stores.store, publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'none' }), close: async () => undefined },
      relay: null, metrics: createMetrics(), isShuttingDown: () => false,
      console: {
        store: stores.store, commands: stores.commands, config, logger: createLogger({ level: 'error', silent: true }),
        adminToken: ADMIN_TOKEN, sessions: consoleSessions(stores.store), now: () => new Date(),
      },
    });
    agent = request.agent(admin);
    await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: ADMIN_TOKEN }).expect(303);
  });
  afterAll(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the events list and the event page: order number, gateway text, shopValues, nested JSON, unknown fields, raw body', async () => {
    const list = await page('/console/events');
    expectNoCardData(list);
    expect(list).toContain('ORD-401288******1881');
    const [row] = await stores.store.searchEvents({ query: 'ORD-4012888888881881', limit: 1, offset: 0 });
    const event = await page(`/console/events/${row!.eventId}`);
    expectNoCardData(event);
    expect(event).toContain('4111 11** **** 1111');
    expect(event).toContain('pan 555555******4444');
  });

  test('the rejection, the conflict and the command pages', async () => {
    const rejections = await stores.store.listRejections();
    expect(rejections).toHaveLength(2);
    for (const rejection of rejections) expectNoCardData(await page(`/console/rejections/${rejection.id}`));
    const form = await page(`/console/rejections/${rejections.find((r) => r.contentType?.includes('x-nonesuch'))!.id}`);
    expect(form).toContain('CVC=***&amp;Track2=');
    expect(form).not.toMatch(/4111\+1111\+1111\+1111|2812101/);
    const [conflict] = await stores.store.listConflicts(1);
    const conflictPage = await page(`/console/conflicts/${conflict!.id}`);
    expectNoCardData(conflictPage);
    expect(conflictPage).toContain('6011-00**-****-9424');
    expectNoCardData(await page('/console/commands'));
    const command = await page('/console/commands/van-cards');
    expectNoCardData(command);
    expect(command).toContain('&quot;cvc&quot;: &quot;***&quot;');
  });

  test('any page text is masked where it is written; attribute values stay exact so links work', () => {
    const order = 'ORD-4111111111111111';
    const out = html`<a href="/console/orders/T0001234/${order}">${order}</a>`.text;
    expect(out).toBe('<a href="/console/orders/T0001234/ORD-4111111111111111">ORD-411111******1111</a>');
    // Whatever text surrounds it, in a cell, a list or a nested fragment.
    const cards = ['4111111111111111', '5555-5555-5555-4444', '3782 822463 10005', '6011000990139424'];
    fc.assert(fc.property(fc.constantFrom(...cards), fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (card, before, after) => {
      const text = `${before} ${card} ${after}`;
      const page = html`<table><tr><td>${text}</td><td>${[html`<b>${text}</b>`, text]}</td></tr></table>`.text;
      expect(page).not.toContain(card);
    }), { numRuns: 300 });
  });
});
