import { kstStamp } from '../../src/notifications/kst-date';
import { DISCREPANCY_KINDS } from '../../src/ledger/fold/order-record';
import { approvalNotification, changeNotification, transferFailedNotification } from '../../src/simulator/notification-builders';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { HOST, ORIGIN } from './console-harness';
import { startLedgerConsole, type LedgerConsole } from './ledger-console-harness';

const MALL = 'T0001234';
let serial = 0;
const orderNo = (tag = 'ORD-CON') => `${tag}-${Date.now()}-${++serial}`;
const pay = (shopOrderNo: string, pgCno: string, amount: number) =>
  approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), transactionDate: kstStamp(new Date()) });
/** A page's text as a person reads it: tags dropped, entities decoded, spaces folded. */
const readable = (page: string) => page.replace(/<\/t[dh]>|<\/a>/g, ' ').replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/\s+/g, ' ');

/** The payment ledger's console pages over `open`'s database: the same tests on SQLite and PostgreSQL. */
function ledgerPages(open: () => Promise<LedgerConsole>): void {
  let h: LedgerConsole;
  beforeEach(async () => {
    h = await open();
  });
  afterEach(async () => h.close());

  /** An order the shop expected at 12000 KRW that the gateway says was paid 1200: an amount_mismatch. */
  async function tamperedOrder(shopOrderNo = orderNo()): Promise<{ shopOrderNo: string; discrepancyId: string }> {
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${encodeURIComponent(shopOrderNo)}/expectation`, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }).expect(200);
    await h.ledgerApp.notify(pay(shopOrderNo, `PG${serial}A`, 1200)).expect(200);
    const record = (await h.ledgerApp.api.get(`/v1/orders/${MALL}/${encodeURIComponent(shopOrderNo)}`).expect(200)).body;
    expect(record.discrepancies.map((d: { kind: string }) => d.kind)).toEqual(['amount_mismatch']);
    return { shopOrderNo, discrepancyId: record.discrepancies[0].id };
  }

  test('the Search box finds an order by its number and its page shows the figures with the currency and a timeline linking to the events', async () => {
    const { shopOrderNo } = await tamperedOrder();
    const { agent } = await h.signIn('lee', 'viewer');
    const list = await agent.get('/console/orders').set('Host', HOST).expect(200);
    expect(list.text).toMatch(/<label class="grow">Search<input name="q"/);
    expect(list.text).toContain('>Orders</a>');
    expect(list.text).toContain('>Discrepancies</a>');

    const found = await agent.get(`/console/orders?q=${encodeURIComponent(shopOrderNo)}`).set('Host', HOST).expect(303);
    expect(found.headers.location).toBe(`/console/orders/${MALL}/${encodeURIComponent(shopOrderNo)}`);
    const page = await agent.get(found.headers.location!).set('Host', HOST).expect(200);
    expect(page.text).toContain('<span class="badge dead">discrepancy</span>');
    expect(page.text).toMatch(/<span class="tile-value">₩12,000<\/span><span class="tile-label">expected<\/span>/);
    expect(page.text).toMatch(/<span class="tile-value">₩1,200<\/span><span class="tile-label">approved<\/span>/);
    expect(readable(page.text)).toContain('₩12,000 by card (from expectation)');
    expect(page.text).toContain('discrepancy opened: amount_mismatch');
    // The timeline runs by the instant: the payment (the gateway's KST time) before the discrepancy it opened (our UTC time).
    const rows = [...page.text.matchAll(/<tr><td>(?:<span class="when">.*?<\/span><\/span>|<span class="muted">—<\/span>)<\/td><td>([^<]+)<\/td>/g)].map((m) => m[1]);
    expect(rows).toEqual(['expectation', 'payment', 'discrepancy opened: amount_mismatch']);
    expect(readable(page.text)).toContain('expected: ₩12,000, notified: ₩1,200');
    expect(page.text).not.toMatch(/minor units|\b1200 KRW|\b12000\b/);
    const eventId = /href="\/console\/events\/(evt_[^"]+)"/.exec(page.text)?.[1];
    expect(eventId).toBeDefined();
    await agent.get(`/console/events/${eventId}`).set('Host', HOST).expect(200);

    const unknown = await agent.get('/console/orders?q=NO-SUCH-ORDER').set('Host', HOST).expect(200);
    expect(unknown.text).toContain('Nothing found for “NO-SUCH-ORDER”');
    await agent.get(`/console/orders/${MALL}/NO-SUCH-ORDER`).set('Host', HOST).expect(404);
  });

  test('an order the simulator made up is marked simulated on the list and on its page, in each language; a real one is not', async () => {
    const made = orderNo('ORD-SIM');
    const real = orderNo('ORD-REAL');
    await h.ledgerApp.notifySimulated(pay(made, `PG${serial}S`, 5000)).expect(200);
    await h.ledgerApp.notify(pay(real, `PG${serial}R`, 5000)).expect(200);
    await h.ledgerApp.api.get(`/v1/orders/${MALL}/${made}`).expect(200);
    await h.ledgerApp.api.get(`/v1/orders/${MALL}/${real}`).expect(200);
    const { agent } = await h.signIn('lee', 'viewer');
    const list = (await agent.get('/console/orders').set('Host', HOST).expect(200)).text;
    const rowOf = (no: string) => list.split('<tr>').find((row) => row.includes(no))!;
    expect(rowOf(made)).toMatch(/<span class="badge simulated" title="[^"]+">simulated<\/span>/);
    expect(rowOf(real)).not.toContain('simulated');
    expect((await agent.get(`/console/orders/${MALL}/${made}`).set('Host', HOST).expect(200)).text).toContain('>simulated</span>');
    expect((await agent.get(`/console/orders/${MALL}/${real}`).set('Host', HOST).expect(200)).text).not.toContain('badge simulated');
    const korean = (await agent.get(`/console/orders/${MALL}/${made}`).set('Host', HOST).set('Accept-Language', 'ko-KR').expect(200)).text;
    expect(korean).toContain('>시뮬레이션</span>');
  });

  test("the Events list names the order of the ledger's own events, read from the event", async () => {
    const { shopOrderNo } = await tamperedOrder();
    const { agent } = await h.signIn('lee', 'viewer');
    const page = (await agent.get('/console/events').set('Host', HOST).expect(200)).text;
    const own = page.split('<tr>').filter((row) => row.includes('>order.status_changed<') || row.includes('>ledger.discrepancy<'));
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const row of own) expect(row).toContain(`<td class="mono order-no"><bdi>${shopOrderNo}</bdi></td>`);
  });

  test('the order list filters by status', async () => {
    const { shopOrderNo: bad } = await tamperedOrder();
    const good = orderNo('ORD-GOOD');
    await h.ledgerApp.notify(pay(good, `PG${serial}G`, 5000)).expect(200);
    const { agent } = await h.signIn('lee', 'viewer');
    const paid = await agent.get('/console/orders?status=paid').set('Host', HOST).expect(200);
    expect(paid.text).toContain(good);
    expect(paid.text).not.toContain(bad);
    const flagged = await agent.get('/console/orders?status=discrepancy').set('Host', HOST).expect(200);
    expect(flagged.text).toContain(bad);
    expect(flagged.text).not.toContain(good);
  });

  test('an order number sent as markup is shown as text on the list, the order page and the Discrepancies page', async () => {
    const { shopOrderNo } = await tamperedOrder('<img src=x onerror=alert(1)>');
    const { agent } = await h.signIn('lee', 'viewer');
    for (const path of ['/console/orders', `/console/orders/${MALL}/${encodeURIComponent(shopOrderNo)}`, '/console/discrepancies']) {
      const page = await agent.get(path).set('Host', HOST).expect(200);
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });

  test('a viewer sees the open discrepancy without a Resolve button, and a replayed resolve POST of theirs is 403 and changes nothing', async () => {
    const { shopOrderNo, discrepancyId } = await tamperedOrder();
    const { agent, csrf } = await h.signIn('lee', 'viewer');
    const page = await agent.get('/console/discrepancies').set('Host', HOST).expect(200);
    expect(page.text).toContain('amount_mismatch');
    expect(page.text).not.toContain('>Resolve</button>');
    expect((await agent.get(`/console/orders/${MALL}/${shopOrderNo}`).set('Host', HOST)).text).not.toContain('>Resolve</button>');

    await agent.post(`/console/discrepancies/${discrepancyId}/resolve`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, note: 'not mine to close', back: 'list' }).expect(403);
    const record = (await h.ledgerApp.api.get(`/v1/orders/${MALL}/${shopOrderNo}`).expect(200)).body;
    expect(record.discrepancies[0].resolvedAt).toBeNull();
    expect(record.status).toBe('discrepancy');
  });

  test("an operator resolves with a note: the store's verb closes it under their name, the order is recomputed and the audit names them", async () => {
    const { shopOrderNo, discrepancyId } = await tamperedOrder();
    const { agent, csrf } = await h.signIn('park', 'operator');
    const list = await agent.get('/console/discrepancies').set('Host', HOST).expect(200);
    expect(list.text).toContain(`action="/console/discrepancies/${discrepancyId}/resolve"`);
    expect(list.text).toContain('>Resolve</button>');

    const missingNote = await agent.post(`/console/discrepancies/${discrepancyId}/resolve`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, note: '  ', back: 'list' });
    expect(missingNote.status).toBe(400);
    const noCsrf = await agent.post(`/console/discrepancies/${discrepancyId}/resolve`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ note: 'forged', back: 'list' });
    expect(noCsrf.status).toBe(403);

    const done = await agent.post(`/console/discrepancies/${discrepancyId}/resolve`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, note: 'customer paid the difference by transfer', back: 'order' }).expect(303);
    expect(done.headers.location).toBe(`/console/orders/${MALL}/${shopOrderNo}?done=resolved`);

    const record = (await h.ledgerApp.api.get(`/v1/orders/${MALL}/${shopOrderNo}`).expect(200)).body;
    expect(record.discrepancies[0]).toMatchObject({ id: discrepancyId, resolvedBy: 'park', note: 'customer paid the difference by transfer' });
    // A resolution records a decision: the order still holds 1,200 of 12,000, so it is underpaid (amber), never a green paid.
    expect(record.status).toBe('underpaid');
    const audit = await h.ledgerApp.stores.store.listAudit(10);
    expect(audit.find((a) => a.action === 'resolved discrepancy')).toMatchObject({ subject: discrepancyId, actor: expect.stringMatching(/^park \(/) });

    const page = await agent.get(done.headers.location!).set('Host', HOST).expect(200);
    expect(page.text).toContain('Resolved: the note is on the discrepancy');
    expect(page.text).toContain('<span class="badge pending">underpaid</span>');
    expect(page.text).not.toContain('<span class="badge delivered">paid</span>');
    const korean = await agent.get(done.headers.location!).set('Host', HOST).set('Accept-Language', 'ko-KR').expect(200);
    expect(korean.text).toContain('<span class="badge pending">미달 결제</span>');
    expect(page.text).toContain('discrepancy resolved: amount_mismatch');
    expect(page.text).toContain('by <bdi>park</bdi>: <bdi>customer paid the difference by transfer</bdi>');
    const after = await agent.get('/console/discrepancies').set('Host', HOST).expect(200);
    expect(after.text).toContain('Open (0)');
  });

  test('the open list goes on past one page, and a resolved one past the first page leaves it for the resolved list, with its resolution', async () => {
    // One more than a page: each a refund whose payout failed (event 51), which opens at once.
    for (let i = 0; i < 101; i += 1) {
      await h.ledgerApp.notify(transferFailedNotification({ mallId: MALL, shopOrderNo: orderNo('ORD-PAGE'), pgCno: `PG${serial}P`, amount: '1000', refundDate: kstStamp(new Date()) })).expect(200);
    }
    const listed = (await h.ledgerApp.api.get('/v1/discrepancies?open=true&limit=200').expect(200)).body.discrepancies as Array<{ id: string }>;
    expect(listed).toHaveLength(101);
    const { agent } = await h.signIn('kim', 'viewer');
    const ids = (text: string, section: string) => [...text.split(section)[1]!.split('</section>')[0]!.matchAll(/data-discrepancy="(dsc_[^"]+)"/g)].map((m) => m[1]);
    const next = (text: string, label: string) => /<a href="([^"]+)">([^<]+)<\/a>/g.exec(text.slice(text.indexOf(label) - 200))?.[1]?.replace(/&amp;/g, '&');
    const first = await agent.get('/console/discrepancies').set('Host', HOST).expect(200);
    expect(first.text).toContain('Open (101)');
    const firstOpen = ids(first.text, '<h2>Open');
    expect(firstOpen).toHaveLength(100);
    const second = await agent.get(next(first.text, 'Next page of open discrepancies')!).set('Host', HOST).expect(200);
    const secondOpen = ids(second.text, '<h2>Open');
    expect([...firstOpen, ...secondOpen].sort()).toEqual(listed.map((d) => d.id).sort());
    expect(second.text).not.toContain('Next page of open discrepancies');
    // The one on the second page resolved: the list of all shows who and why on its second page.
    await h.ledgerApp.api.post(`/v1/discrepancies/${secondOpen[0]}/resolve`, { note: 'paid out again by hand', by: 'kim' }).expect(200);
    const allFirst = await agent.get('/console/discrepancies').set('Host', HOST).expect(200);
    expect(allFirst.text).toContain('Open (100)');
    // Listed once: under Resolved, no longer under Open, and no open one among the resolved.
    expect(ids(allFirst.text, '<h2>Resolved')).toEqual([secondOpen[0]]);
    expect(ids(allFirst.text, '<h2>Open')).not.toContain(secondOpen[0]);
    expect(allFirst.text).toContain('by <bdi>kim</bdi>: <bdi>paid out again by hand</bdi>');
    expect(allFirst.text).not.toContain('Next page of resolved discrepancies');
  });

  test("every amount is money in the order's currency: KRW and USD expectations, the mall's default without one, a negative remainder marked with its sign", async () => {
    const usd = orderNo('ORD-USD');
    await h.ledgerApp.api.put(`/v1/orders/${MALL}/${usd}/expectation`, { amount: 1203, currency: 'USD', method: 'card', expiresAt: null }).expect(200);
    await h.ledgerApp.notify(pay(usd, `PG${serial}U`, 1203)).expect(200);
    const plain = orderNo('ORD-PLAIN');
    await h.ledgerApp.notify(pay(plain, `PG${serial}K`, 12000)).expect(200);
    // A cancel of more than was paid: remaining is -2000 (the over_cancel waits for the grace period).
    await h.ledgerApp.notify(changeNotification({ mallId: MALL, shopOrderNo: plain, pgCno: `PG${serial}K`, cancelPgCno: `PG${serial}KC`, cancelAmount: '14000', amount: '14000', cancelRemainAmount: '0', cancelDate: kstStamp(new Date()) })).expect(200);
    const { agent } = await h.signIn('lee', 'viewer');
    const list = await agent.get('/console/orders').set('Host', HOST).expect(200);
    const rowOf = (text: string, no: string) => readable(text.split('<tr>').find((row) => row.includes(`<bdi>${no}</bdi></a>`))!.split('</tr>')[0]!);
    expect(rowOf(list.text, usd)).toContain('$12.03 $12.03 $0.00 $12.03 $0.00');
    expect(rowOf(list.text, plain)).toContain('none ₩12,000 ₩14,000 -₩2,000 ₩0');
    expect(list.text).toContain('<span class="money negative">-₩2,000</span>');
    expect(list.text).not.toMatch(/minor units|\b1203\b|\b12000\b/);
    const usdPage = await agent.get(`/console/orders/${MALL}/${usd}`).set('Host', HOST).expect(200);
    expect(usdPage.text).toMatch(/<span class="tile-value">\$12\.03<\/span><span class="tile-label">approved<\/span>/);
    expect(readable(usdPage.text)).toContain('$12.03, pgCno');
    const plainPage = await agent.get(`/console/orders/${MALL}/${plain}`).set('Host', HOST).expect(200);
    expect(plainPage.text).toMatch(/<span class="tile-value"><span class="money negative">-₩2,000<\/span><\/span><span class="tile-label">remaining<\/span>/);
    expect(readable(plainPage.text)).toContain('₩14,000 of pgCno');
    // The event page shows the notification's amount in its order's currency; its JSON keeps the integer.
    const eventId = /href="\/console\/events\/(evt_[^"]+)"/.exec(usdPage.text)![1]!;
    const event = await agent.get(`/console/events/${eventId}`).set('Host', HOST).expect(200);
    expect(event.text).toMatch(/<th>amount<\/th><td><span class="money">\$12\.03<\/span><\/td>/);
    expect(event.text).toContain('&quot;amount&quot;: 1203');
    // The API keeps integers in minor units.
    expect((await h.ledgerApp.api.get(`/v1/orders/${MALL}/${usd}`).expect(200)).body).toMatchObject({ approved: 1203, expected: { amount: 1203, currency: 'USD' } });
  });

  test('orders are listed newest first, filtered by the KST day of their last change, with a count per status', async () => {
    const [first, second, third] = [orderNo('ORD-A'), orderNo('ORD-B'), orderNo('ORD-C')];
    for (const [i, no] of [first, second, third].entries()) await h.ledgerApp.notify(pay(no, `PG${serial}N${i}`, 1000)).expect(200);
    await tamperedOrder();
    const { agent } = await h.signIn('lee', 'viewer');
    const list = await agent.get('/console/orders').set('Host', HOST).expect(200);
    const at = (no: string) => list.text.indexOf(`<bdi>${no}</bdi></a>`);
    expect(at(third)).toBeLessThan(at(second));
    expect(at(second)).toBeLessThan(at(first));
    expect(readable(list.text)).toContain('all 4 ledger error 0 refund failed 0 discrepancy 1 cancelled 0 partially cancelled 0 underpaid 0 overpaid 0 paid 3 ');
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() + 9 * 3600_000 - 86_400_000).toISOString().slice(0, 10);
    const todays = await agent.get(`/console/orders?from=${today}&to=${today}&status=paid`).set('Host', HOST).expect(200);
    expect([first, second, third].every((no) => todays.text.includes(no))).toBe(true);
    expect(todays.text).toContain(`value="${today}"`);
    const before = await agent.get(`/console/orders?to=${yesterday}`).set('Host', HOST).expect(200);
    expect(before.text).not.toContain(first);
    expect(before.text).toContain('No orders match.');
    expect(readable(before.text)).toContain('all 0 ');
    // A day that is no day is no bound, rather than an error.
    expect((await agent.get('/console/orders?from=2026-13-45').set('Host', HOST).expect(200)).text).toContain(first);
  });

  test('each open discrepancy is listed once with one Resolve button, with a plain line and a link to its playbook, which has a section for every kind', async () => {
    const { discrepancyId, shopOrderNo } = await tamperedOrder();
    const { agent } = await h.signIn('park', 'operator');
    const page = await agent.get('/console/discrepancies').set('Host', HOST).expect(200);
    expect(page.text.split(`data-discrepancy="${discrepancyId}"`)).toHaveLength(2);
    expect(page.text.split('>Resolve</button>')).toHaveLength(2);
    expect(readable(page.text)).toContain('Amount mismatch amount_mismatch The gateway reports a payment of another amount than the shop expected.');
    // The playbook link names the order, so the playbook links back to it.
    const playbookHref = `/console/playbooks?mall=${MALL}&amp;order=${encodeURIComponent(shopOrderNo)}#amount_mismatch`;
    expect(page.text).toContain(`href="${playbookHref}"`);
    const order = await agent.get(`/console/orders/${MALL}/${shopOrderNo}`).set('Host', HOST).expect(200);
    expect(order.text).toContain(`href="${playbookHref}"`);
    const playbooks = await agent.get(playbookHref.replace('&amp;', '&').replace(/#.*/, '')).set('Host', HOST).expect(200);
    for (const kind of [...DISCREPANCY_KINDS, 'conflicting_notification', 'refused_notification', 'unknown_refund_amount']) {
      // What to check and how to settle it are now steps in the console and in the merchant portal, and the engineers' part.
      expect(playbooks.text).toMatch(new RegExp(`<section class="card playbook" id="${kind}">[\\s\\S]*?href="/console/orders/${MALL}/${shopOrderNo}"[\\s\\S]*?What it means[\\s\\S]*?In this console[\\s\\S]*?merchant portal[\\s\\S]*?For engineers`));
    }
  });

  test('the overview counts open discrepancies and links to their page', async () => {
    await tamperedOrder();
    const refund = orderNo('ORD-REFUND');
    await h.ledgerApp.notify(pay(refund, `PG${serial}R`, 7000)).expect(200);
    await h.ledgerApp.notify(transferFailedNotification({ mallId: MALL, shopOrderNo: refund, pgCno: `PG${serial}R`, amount: '7000', refundDate: kstStamp(new Date()) })).expect(200);
    const { agent } = await h.signIn('lee', 'viewer');
    const overview = await agent.get('/console').set('Host', HOST).expect(200);
    expect(overview.text).toMatch(/<a class="tile bad" href="\/console\/discrepancies"><span class="tile-value">2<\/span><span class="tile-label">open discrepancies<\/span><\/a>/);
  });

  test('an order paid, cancelled in full and paid again reads paid, its first payment marked cancelled in the timeline', async () => {
    const shopOrderNo = orderNo();
    const minutesAgo = (n: number) => kstStamp(new Date(Date.now() - n * 60_000));
    await h.ledgerApp.notify({ ...pay(shopOrderNo, `PG${serial}A`, 10000), approvalDate: minutesAgo(3) }).expect(200);
    await h.ledgerApp.notify(changeNotification({ mallId: MALL, shopOrderNo, pgCno: `PG${serial}A`, cancelAmount: '10000', amount: '10000', cancelRemainAmount: '0', statusCode: 'TS05', cancelDate: minutesAgo(2) })).expect(200);
    await h.ledgerApp.notify({ ...pay(shopOrderNo, `PG${serial}B`, 10000), approvalDate: minutesAgo(1) }).expect(200);
    const { agent } = await h.signIn('lee', 'viewer');
    const page = await agent.get(`/console/orders/${MALL}/${encodeURIComponent(shopOrderNo)}`).set('Host', HOST).expect(200);
    expect(page.text).toContain('<span class="badge delivered">paid</span>');
    const rows = [...page.text.matchAll(/<tr><td>(?:<span class="when">.*?<\/span><\/span>|<span class="muted">—<\/span>)<\/td><td>([^<]+)<\/td>/g)].map((m) => m[1]);
    expect(rows.filter((what) => what!.startsWith('payment'))).toEqual(['payment (cancelled)', 'payment']);
  });
}

describe("the console's Orders and Discrepancies pages, on SQLite", () => {
  ledgerPages(() => startLedgerConsole());
});

describePostgres("the console's Orders and Discrepancies pages, on PostgreSQL", () => {
  ledgerPages(async () => {
    const schema: TestSchema = await createTestSchema();
    const h = await startLedgerConsole({ databaseUrl: schema.url });
    return { ...h, close: async () => { await h.close(); await schema.drop(); } };
  });
});
