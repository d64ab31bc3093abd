import type { EventListing } from '../../src/cli/event-listing';
import type { DeliveryAttempt } from '../../src/store/store';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { seededReceiver } from './seeded-receiver';

describe('noti-receiver events show: delivery attempts', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  let eventId: string;

  beforeAll(async () => {
    receiver = seededReceiver();
    expect((await receiver.postJson(approvalNotification({ shopOrderNo: 'ORD-ATTEMPTS' }))).status).toBe(200);
    const [row] = (await receiver.cli(['events', 'list', '--json'])).json<EventListing[]>();
    eventId = row!.id;
    await receiver.store.markRetry(row!.seq, 'answered 503: {"cardNo":"5361481234561234"}', Date.parse('2026-11-21T03:00:02.000Z'), { at: '2026-11-21T03:00:00.000Z', publisher: 'http' });
    await receiver.store.markDelivered([row!.seq], '2026-11-21T03:00:02.500Z', 'http');
    expect((await receiver.cli(['events', 'requeue', eventId], { USER: 'ops-lee' })).code).toBe(0);
  });
  afterAll(() => receiver.cleanup());

  test('the human output lists every attempt and the requeue, error text masked', async () => {
    const shown = await receiver.cli(['events', 'show', eventId]);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split('\n');
    const header = lines.findIndex((line) => /^#\s+at\s+outcome\s+error$/.test(line));
    expect(header).toBeGreaterThan(0);
    expect(lines.slice(header + 2, header + 5).map((line) => line.split(/\s{2,}/))).toEqual([
      ['1', '2026-11-21 12:00:00 KST', 'retry via http, next at 2026-11-21 12:00:02 KST', 'answered 503: {"cardNo":"************1234"}'],
      ['2', '2026-11-21 12:00:02 KST', 'delivered via http', '-'],
      ['-', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d KST$/), 'requeued by ops-lee (cli)', '-'],
    ]);
    expect(shown.stdout).not.toContain('5361481234561234');
  });

  test('--json includes the attempts as stored', async () => {
    const json = (await receiver.cli(['events', 'show', eventId, '--json'])).json<{ attempts: number; deliveryAttempts: DeliveryAttempt[] }>();
    expect(json.attempts).toBe(0);
    expect(json.deliveryAttempts.map((a) => [a.attempt, a.outcome, a.error, a.publisher, a.actor])).toEqual([
      [1, 'retry', 'answered 503: {"cardNo":"5361481234561234"}', 'http', null],
      [2, 'delivered', null, 'http', null],
      [null, 'requeued', null, null, 'ops-lee (cli)'],
    ]);
  });

  test('an event never tried says so', async () => {
    expect((await receiver.postJson(approvalNotification({ shopOrderNo: 'ORD-UNTRIED' }))).status).toBe(200);
    const [row] = (await receiver.cli(['events', 'list', '--json', '--order', 'ORD-UNTRIED'])).json<EventListing[]>();
    expect((await receiver.cli(['events', 'show', row!.id])).stdout).toContain('delivery attempts: none yet');
  });
});
