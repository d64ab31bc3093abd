import type { EventListing } from '../../src/cli/event-listing';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { seededReceiver } from './seeded-receiver';

describe('noti-receiver events show', () => {
  it("masks a last error that quotes an endpoint's answer (rows written before answers were reduced to their size)", async () => {
    const receiver = seededReceiver();
    try {
      expect((await receiver.postJson(approvalNotification())).status).toBe(200);
      const [row] = (await receiver.cli(['events', 'list', '--json'])).json<EventListing[]>();
      await receiver.store.markRetry(row!.seq, 'POST http://q/events answered 400: {"customerName":"Hong Gildong","cardNo":"5361481234561234"}', Date.now());
      const shown = await receiver.cli(['events', 'show', row!.id]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('answered 400');
      expect(shown.stdout).toContain('************1234');
      expect(shown.stdout).not.toMatch(/5361481234561234|Gildong/);
    } finally {
      await receiver.cleanup();
    }
  });
});
