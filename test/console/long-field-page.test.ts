import * as cardNumbers from '../../src/observability/card-numbers';
import { OFF_LOOP_PAGES } from '../../src/console/render/page-recipes';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

/**
 * Issue 35, item 8: an approval whose `shopValue1` is `a4111111111111111` repeated to 40–60 KB is
 * acked at once; opening its event page then held the process for 7 to 54 s, and a notification
 * the gateway sent meanwhile waited as long for its ack. The page and the ack share one process,
 * as in production: both must complete (the test's own time limit is the only clock).
 */
describe('a long adversarial field on the event page', () => {
  let harness: ConsoleHarness;

  beforeAll(async () => {
    harness = await startConsoleHarness();
  });
  afterAll(async () => {
    await harness.close();
  });

  test.each([40, 58])('%i KB: the page renders and a gateway POST sent meanwhile is acked', async (kib) => {
    const long = 'a4111111111111111'.repeat(Math.ceil((kib * 1024) / 17)).slice(0, kib * 1024);
    const stored = approvalNotification({ shopValue1: long, shopValue2: '4111 '.repeat(400) });
    const ack = await harness.receiver.postJson(stored);
    expect(ack.status).toBe(200);
    const [row] = await harness.receiver.store.searchEvents({ query: stored.shopOrderNo, limit: 1, offset: 0 });
    const { agent } = await harness.signIn();

    const [page, meanwhile] = await Promise.all([
      agent.get(`/console/events/${row!.eventId}`).set('Host', HOST),
      harness.receiver.postJson(approvalNotification()),
    ]);
    expect(page.status).toBe(200);
    // A run inside a long hexadecimal token is part of it (an id), as before: shown as it is.
    expect(page.text).toContain(long.slice(0, 1700));
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.text).toContain('0000');
  });

  test('the page masks the long value once, though it shows it twice (the body, the normalized event)', async () => {
    const long = 'pan 4111 1111 1111 1111 '.repeat(1000);
    const stored = approvalNotification({ shopValue1: long });
    expect((await harness.receiver.postJson(stored)).status).toBe(200);
    const [row] = await harness.receiver.store.searchEvents({ query: stored.shopOrderNo, limit: 1, offset: 0 });
    const { agent } = await harness.signIn();
    const scans = jest.spyOn(cardNumbers, 'maskCardNumbers');
    const texts = jest.spyOn(cardNumbers, 'maskCardText');
    const ofTheField = (calls: unknown[][]) => calls.filter(([text]) => typeof text === 'string' && text.length >= 24_000).length;
    try {
      const page = await agent.get(`/console/events/${row!.eventId}`).set('Host', HOST).expect(200);
      expect(page.text.split('4111 11** **** 1111').length - 1).toBe(2 * 1000);
      // The page is masked and drawn on the page thread: the loop that acks the gateway scans none of it.
      expect(ofTheField(scans.mock.calls) + ofTheField(texts.mock.calls)).toBe(0);
      // The same recipe run here, where it can be watched: the field is scanned once.
      const detail = (await harness.receiver.store.getEvent(row!.eventId))!;
      const drawn = OFF_LOOP_PAGES.event({ actor: 'kim', role: 'operator', csrfToken: 'x' }, detail, [], [], null, 'KRW');
      expect(drawn.split('4111 11** **** 1111').length - 1).toBe(2 * 1000);
      expect(ofTheField(scans.mock.calls) + ofTheField(texts.mock.calls)).toBe(1);
    } finally {
      scans.mockRestore();
      texts.mockRestore();
    }
  });
});
