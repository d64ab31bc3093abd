import { approvalNotification, depositNotification } from '../../src/simulator/notification-builders';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

const CARD = '4111111111111111';
const ACCOUNT = '94770201234567';
const PHONE = '01098765432';
const SCRIPT = '<script>window.__pwned=1</script>';
const IMG = '<img src=x onerror=alert(1)>';

describe('console content: notification text is shown as text, personal data masked', () => {
  let h: ConsoleHarness;
  let page: (path: string) => Promise<string>;
  let hostileId: string;
  let depositId: string;
  let conflictId: number;

  beforeAll(async () => {
    h = await startConsoleHarness({ MALL_IDS: 'T0001234' });
    const hostile = approvalNotification({ shopOrderNo: `ORD${SCRIPT}`, resMsg: IMG, cardNo: CARD, customerName: '홍길동', cpNo: PHONE });
    await h.receiver.postJson(hostile).expect(200);
    await h.receiver.postJson({ ...hostile, statusMessage: `changed ${IMG}`, cardNo: '5500000000000004' }).expect(200);
    const deposit = depositNotification({ shopOrderNo: 'ORDER-DEPOSIT', accountNo: ACCOUNT, depositName: '김철수' });
    await h.receiver.postJson(deposit).expect(200);
    await h.receiver.postJson(approvalNotification({ mallId: 'T0009999', shopOrderNo: `REJ${SCRIPT}`, cardNo: CARD })).expect(400);
    const events = await h.receiver.store.searchEvents({ limit: 10, offset: 0 });
    hostileId = events.find((e) => e.pgCno === hostile.pgCno)!.eventId;
    depositId = events.find((e) => e.pgCno === deposit.pgCno)!.eventId;
    conflictId = (await h.receiver.store.listConflicts())[0]!.id;
    const { agent } = await h.signIn();
    page = async (path) => {
      const answer = await agent.get(path).set('Host', HOST);
      expect(answer.status).toBe(200);
      return answer.text;
    };
  });
  afterAll(() => h.close());

  const everyPage = async () => {
    const rejectionId = (await h.receiver.store.listRejections())[0]!.id;
    return Promise.all(
      ['/console', '/console/events', `/console/events/${hostileId}`, `/console/events/${depositId}`, '/console/rejections',
        `/console/rejections/${rejectionId}`, '/console/conflicts', `/console/conflicts/${conflictId}`, '/console/audit'].map(page),
    );
  };

  test('markup in notification fields is escaped on every page', async () => {
    for (const text of await everyPage()) {
      expect(text).not.toContain('<script>window.__pwned');
      expect(text).not.toContain('<img src=x');
    }
    const event = await page(`/console/events/${hostileId}`);
    expect(event).toContain('ORD&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(event).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  test('card, account and phone numbers and names never appear whole', async () => {
    for (const text of await everyPage()) {
      for (const secret of [CARD, '5500000000000004', ACCOUNT, PHONE, '홍길동', '김철수']) expect(text).not.toContain(secret);
    }
    expect(await page(`/console/events/${hostileId}`)).toContain('************1111');
    expect(await page(`/console/events/${depositId}`)).toContain('**********4567');
  });

  test('the search box finds an event by order number, pgCno or event id', async () => {
    expect(await page('/console/events?q=ORDER-DEPOSIT')).toContain(depositId);
    expect(await page(`/console/events?q=${depositId}`)).toContain('ORDER-DEPOSIT');
    expect(await page('/console/events?q=ORDER-DEPOSIT')).not.toContain(hostileId);
    expect(await page('/console/events?type=vaccount.deposited')).toContain(depositId);
  });

  test('"Requeue all dead" is offered on a filtered list only', async () => {
    expect(await page('/console/events')).not.toContain('Requeue all dead');
    expect(await page('/console/events?state=dead')).toContain('Requeue all dead');
    expect(await page('/console/events?type=payment.approved')).toContain('Requeue all dead');
    expect(await page('/console/events?state=delivered')).not.toContain('Requeue all dead');
  });

  test('an event page shows the raw body decoded, its delivery and its conflicts', async () => {
    const text = await page(`/console/events/${hostileId}`);
    expect(text).toContain('Raw body as received');
    expect(text).toContain('application/json');
    expect(text).toContain(`/console/conflicts/${conflictId}`);
    expect(text).toContain('Requeue');
  });

  test('a conflict page lists the stored and conflicting values field by field', async () => {
    const text = await page(`/console/conflicts/${conflictId}`);
    expect(text).toMatch(/<tr class="differs">\s*<th class="mono">statusMessage/);
    expect(text).toContain('changed &lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain('************0004');
  });

  test('the overview shows counts, the 24 h problems and the retention policy', async () => {
    const text = await page('/console');
    expect(text).toContain('rejections, 24 h');
    expect(text).toContain('kept for <strong>90 days</strong>');
  });
});
