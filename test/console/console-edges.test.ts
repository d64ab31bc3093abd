import request from 'supertest';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { ADMIN_TOKEN, HOST, startConsoleHarness } from './console-harness';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const MALL = 'T0001234';
const PROTOTYPE_NAMES = ['valueOf', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupSetter__'];

describe('console pages at their edges', () => {
  let h: LedgerConsole;
  let agent: request.Agent;
  const shopOrderNo = `ORD-EDGE-${Date.now()}`;
  beforeAll(async () => {
    h = await startLedgerConsole();
    // An expectation, then a payment of another amount: an order.status_changed and a ledger.discrepancy event.
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno: 'PGEDGE1', amount: '1200', transactionDate: kstStamp(new Date()) })).expect(200);
    ({ agent } = await h.signIn('ada', 'admin'));
  });
  afterAll(() => h.close());

  test('?done= with a name of Object.prototype is no notice and no 500, on every page that shows notices', async () => {
    const event = (await h.ledgerApp.stores.store.searchEvents({ limit: 1, offset: 0, query: 'PGEDGE1' }))[0]!;
    const pages = ['/console', '/console/events', `/console/events/${event.eventId}`, '/console/rejections', '/console/audit', '/console/operators',
      '/console/orders', `/console/orders/${MALL}/${shopOrderNo}`, '/console/discrepancies'];
    for (const page of pages) {
      for (const name of PROTOTYPE_NAMES) {
        const answer = await agent.get(`${page}${page.includes('?') ? '&' : '?'}done=${name}&n=1`).set('Host', HOST);
        expect([page, name, answer.status]).toEqual([page, name, 200]);
        expect(answer.text).not.toContain('class="notice"');
      }
    }
  });

  test('the event page of an order.status_changed and of a ledger.discrepancy event shows the event and links its order', async () => {
    const events = await h.ledgerApp.stores.store.searchEvents({ limit: 20, offset: 0 });
    const mine = events.filter((e) => e.type === 'order.status_changed' || e.type === 'ledger.discrepancy');
    expect(new Set(mine.map((e) => e.type))).toEqual(new Set(['order.status_changed', 'ledger.discrepancy']));
    for (const event of mine) {
      const page = await agent.get(`/console/events/${event.eventId}`).set('Host', HOST);
      expect([event.type, page.status]).toEqual([event.type, 200]);
      expect(page.text).toContain(`Event · ${event.type} · made by this service`);
      expect(page.text).toContain(`href="/console/orders/${MALL}/${shopOrderNo}"`);
      expect(page.text).toContain('Event (as forwarded)');
      expect(page.text).not.toContain('notiType');
    }
  });
});

describe('refusal and error pages of the console carry its security headers', () => {
  const expectHeaders = (answer: request.Response, what: string) => {
    expect([what, answer.headers['content-security-policy']]).toEqual([what, expect.stringContaining("frame-ancestors 'none'")]);
    expect([what, answer.headers['x-frame-options']]).toEqual([what, 'DENY']);
    expect([what, answer.headers['x-content-type-options']]).toEqual([what, 'nosniff']);
  };

  test('"Not an operator" anywhere on the listener, a misdirected Host, a 404 and a database failure', async () => {
    const h = await startConsoleHarness({ ADMIN_AUTH_HEADER: 'X-Forwarded-Email', ADMIN_PUBLIC_URL: 'http://ops.shop.example' }, { relay: false });
    try {
      for (const path of ['/favicon.ico', '/console', '/console/events']) {
        const refused = await request(h.admin).get(path).set('Host', 'ops.shop.example').set('X-Forwarded-Email', 'nobody@shop.example');
        expect([path, refused.status]).toEqual([path, 403]);
        expect(refused.text).toContain('Not an operator');
        expectHeaders(refused, `not an operator at ${path}`);
      }
      expectHeaders(await request(h.admin).get('/console').set('Host', 'rebound.evil.example').expect(421), 'misdirected');
      const agent = request.agent(h.admin);
      await agent.post('/console/sign-in').set('Host', 'ops.shop.example').set('Origin', 'http://ops.shop.example').type('form').send({ token: ADMIN_TOKEN }).expect(303);
      expectHeaders(await agent.get('/no-such-page').set('Host', 'ops.shop.example').expect(404), 'not found');
      await h.receiver.store.close();
      expectHeaders(await agent.get('/console/audit').set('Host', 'ops.shop.example').expect(503), 'database down');
    } finally {
      await h.close();
    }
  });
});
