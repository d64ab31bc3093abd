import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { DEV_GATEWAY_IP } from '../helpers/test-receiver';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

/**
 * Issue 37: the gateway's listener and the console share one process and one event loop. A
 * heavy page (a body of hundreds of fields, a 40 KB one) drawn on that loop held a gateway POST
 * sent meanwhile until the page was done. Through both real listeners: the POST is sent once the
 * page requests reached the admin listener, and its ack comes back before any of the pages.
 */
describe('a heavy console page does not hold the gateway\'s ack', () => {
  let h: ConsoleHarness;
  let gateway: Server;
  let admin: Server;
  let arrived: () => void = () => undefined;

  const listen = async (server: Server) => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    h = await startConsoleHarness({}, { relay: false });
    gateway = createServer(h.receiver.app);
    admin = createServer((req, res) => {
      if (req.url?.startsWith('/console/events/evt_')) arrived();
      h.admin(req, res);
    });
  });
  afterAll(async () => {
    gateway.closeAllConnections();
    admin.closeAllConnections();
    gateway.close();
    admin.close();
    await h.close();
  });

  test('a POST sent while heavy event pages are drawn is answered before them, and the pages are whole and masked', async () => {
    const [gatewayUrl, adminUrl] = await Promise.all([listen(gateway), listen(admin)]);
    const fields = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`shopValue${i + 10}`, `홍길동 010-1234-${String(i).padStart(4, '0')} 4111 1111 1111 1111 a4111111111111111`]));
    const heavy = approvalNotification({ ...fields, shopValue1: 'a4111111111111111'.repeat(500) });
    await h.receiver.postJson(heavy).expect(200);
    const [row] = await h.receiver.store.searchEvents({ query: heavy.shopOrderNo, limit: 1, offset: 0 });
    const { cookie } = await h.signIn();

    const post = () => fetch(`${gatewayUrl}${h.receiver.config.NOTIFY_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-forwarded-for': DEV_GATEWAY_IP },
      body: JSON.stringify(approvalNotification()),
    });
    const order: string[] = [];
    const allArrived = new Promise<void>((resolve) => {
      let n = 0;
      arrived = () => void (++n === 3 && resolve());
    });
    const pages = Array.from({ length: 3 }, async () => {
      const answer = await fetch(`${adminUrl}/console/events/${row!.eventId}`, { headers: { cookie, host: HOST } });
      const text = await answer.text();
      order.push('page');
      return { status: answer.status, text };
    });
    await allArrived;
    const ack = await post();
    order.push('ack');
    expect(ack.status).toBe(200);
    const drawn = await Promise.all(pages);

    expect(order[0]).toBe('ack');
    for (const page of drawn) {
      expect(page.status).toBe(200);
      // Every field is there, masked, in the body as received (and the long one in the normalized event too).
      // (checked as booleans: a failure would print the whole page)
      expect(page.text.includes('shopValue509')).toBe(true);
      expect(page.text.includes('010-1234-0499')).toBe(false);
      expect(page.text.includes('***-****-0499')).toBe(true);
      expect(page.text.split('4111 11** **** 1111').length - 1).toBeGreaterThanOrEqual(500);
      expect(page.text.includes('a4111111111111111'.repeat(100))).toBe(true);
    }
  });
});
