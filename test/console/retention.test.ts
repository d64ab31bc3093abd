import { createLogger } from '../../src/observability/logger';
import { startRetention } from '../../src/retention/retention-schedule';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('retention, a hundred days later', () => {
  let h: ConsoleHarness;
  let clock = Date.now();
  const approval = approvalNotification({ shopOrderNo: 'ORDER-OLD', cardNo: '4111111111111111' });
  let eventId: string;

  beforeAll(async () => {
    h = await startConsoleHarness({ MALL_IDS: 'T0001234' }, { now: () => new Date(clock) });
    await h.receiver.postJson(approval).expect(200);
    await h.receiver.postJson(approvalNotification({ mallId: 'T0009999' })).expect(400);
    eventId = (await h.receiver.forwarded(1))[0]!.id;
    // The line reaches the file just before the row is marked delivered; only delivered rows are pruned.
    await eventually(async () => (await h.receiver.store.getEvent(eventId))?.status === 'delivered', 10_000, 'the event marked delivered');

    clock += 100 * DAY_MS;
    const retention = startRetention({ store: h.receiver.store, days: 90, logger: createLogger({ level: 'error', silent: true }), now: () => new Date(clock) });
    await retention.idle();
    retention.stop();
  });
  afterAll(() => h.close());

  test('old rows lose their raw bodies and data, and the overview says what was removed', async () => {
    const stored = (await h.receiver.store.getEvent(eventId))!;
    expect(Buffer.from(stored.rawBody).length).toBe(0);
    expect(stored.event.data).toEqual({});
    expect((await h.receiver.store.listRejections())[0]!.rawBody).toBeNull();

    const { agent } = await h.signIn();
    const overview = await agent.get('/console').set('Host', HOST).expect(200);
    expect(overview.text).toContain('removed 1 event(s), 1 rejection(s) and 0 conflict(s)');
    const page = await agent.get(`/console/events/${eventId}`).set('Host', HOST).expect(200);
    expect(page.text).toContain('Removed by the retention policy');
    expect(page.text).toContain('ORDER-OLD');
    // The page's own random values (the event id, the pgCno, the form token) may hold any digits.
    const shown = page.text
      .replaceAll(eventId, '')
      .replaceAll(approval.pgCno, '')
      .replace(/name="_csrf" value="[^"]*"/g, '');
    expect(shown).not.toContain('4111');
  });

  test('a late resend from the gateway is still a duplicate: acked, not stored or forwarded again', async () => {
    const answer = await h.receiver.postJson(approval).expect(200);
    expect(answer.body).toMatchObject({ resCd: '0000' });
    const [row] = await h.receiver.store.searchEvents({ query: 'ORDER-OLD', limit: 10, offset: 0 });
    expect(row).toMatchObject({ eventId, status: 'delivered', redeliveries: 1 });
    expect(await h.receiver.store.nextPending(10)).toEqual([]);
    expect(await h.receiver.count('inbox')).toBe(1);
  });
});
