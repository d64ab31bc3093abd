import request from 'supertest';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { HOST } from './console-harness';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const MALL = 'T0001234';
const RLO = '\u202e';

/** The page with every isolated piece taken out: what is left must hold no right-to-left override. */
function outsideIsolation(page: string): string {
  return page.replace(/<bdi>[\s\S]*?<\/bdi>/g, '').replace(/\u2068[^\u2069]*\u2069/g, '');
}

describe('gateway text is isolated (bidi) on every console page that shows it', () => {
  let h: LedgerConsole;
  let agent: request.Agent;
  const shopOrderNo = `ORD-${RLO}-BIDI-${Date.now()}`;
  let eventId: string;
  beforeAll(async () => {
    h = await startLedgerConsole();
    const order = `/v1/orders/${MALL}/${encodeURIComponent(shopOrderNo)}`;
    await h.ledgerApp.api.put(`${order}/expectation`, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    const payment = approvalNotification({
      mallId: MALL, shopOrderNo, pgCno: 'PGBIDI1', amount: '1200', approvalDate: kstStamp(new Date()),
      resMsg: `${RLO}정상처리`, statusMessage: `${RLO}매입요청`, issuerName: `${RLO}비씨카드`, customerName: `${RLO}홍길동`,
    });
    await h.ledgerApp.notify(payment).expect(200);
    // The same notification again with another message: a conflict.
    await h.ledgerApp.notify({ ...payment, resMsg: `${RLO}other` }).expect(200);
    const record = (await h.ledgerApp.api.get(order).expect(200)).body as { discrepancies: Array<{ id: string }> };
    await h.ledgerApp.api.post(`/v1/discrepancies/${record.discrepancies[0]!.id}/resolve`, { note: `${RLO}refunded the difference`, by: 'kim' }).expect(200);
    eventId = (await h.ledgerApp.stores.store.searchEvents({ query: 'PGBIDI1', type: 'payment.approved', limit: 1, offset: 0 }))[0]!.eventId;
    ({ agent } = await h.signIn('vera', 'viewer'));
  });
  afterAll(() => h.close());

  test('events, an event, conflicts, a conflict, orders, an order, discrepancies and the audit', async () => {
    const conflict = (await h.ledgerApp.stores.store.listConflicts())[0]!;
    const pages = ['/console/events', `/console/events/${eventId}`, '/console/conflicts', `/console/conflicts/${conflict.id}`,
      '/console/orders', `/console/orders/${MALL}/${encodeURIComponent(shopOrderNo)}`, '/console/discrepancies', '/console/audit'];
    for (const path of pages) {
      const page = await agent.get(path).set('Host', HOST).expect(200);
      expect([path, page.text.includes(RLO)]).toEqual([path, true]);
      expect([path, outsideIsolation(page.text).includes(RLO)]).toEqual([path, false]);
    }
  });

  test('the event page isolates the message, the status, the card issuer and the masked name; its JSON shows the override as an escape', async () => {
    const page = (await agent.get(`/console/events/${eventId}`).set('Host', HOST).expect(200)).text;
    expect(page).toContain(`<bdi>${RLO}정상처리</bdi>`);
    expect(page).toContain(`<bdi>${RLO}매입요청</bdi>`);
    expect(page).toContain(`<bdi>${RLO}비씨카드</bdi>`);
    expect(page).not.toContain('홍길동');
    expect(page).toContain('\\u202e정상처리');
  });
});
