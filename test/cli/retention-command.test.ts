import { inboxEntry, rejectionEntry } from '../helpers/stored-events';
import { seededReceiver } from './seeded-receiver';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('noti-receiver retention prune', () => {
  test('prunes what is older than RETENTION_DAYS with the receiver\'s own procedure, keeping dedup keys', async () => {
    const receiver = seededReceiver();
    try {
      const old = inboxEntry({ pgCno: 'PG-CLI-OLD', receivedAt: new Date(Date.now() - 40 * DAY_MS).toISOString() });
      await receiver.store.record(old);
      await receiver.store.markDelivered((await receiver.store.nextPending(10)).map((row) => row.seq), new Date().toISOString());
      await receiver.store.recordRejection(rejectionEntry({ receivedAt: new Date(Date.now() - 40 * DAY_MS).toISOString() }));

      const kept = await receiver.cli(['retention', 'prune', '--json'], { RETENTION_DAYS: '60' });
      expect(kept.code).toBe(0);
      expect(kept.json()).toMatchObject({ retentionDays: 60, events: 0, rejections: 0, conflicts: 0 });

      const pruned = await receiver.cli(['retention', 'prune'], { RETENTION_DAYS: '30' });
      expect(pruned.code).toBe(0);
      expect(pruned.stdout).toContain('pruned 1 event(s), 1 rejection(s) and 0 conflict(s)');
      expect(Buffer.from((await receiver.store.getEvent(old.event.id))!.rawBody).length).toBe(0);
      await expect(receiver.store.record(old)).resolves.toMatchObject({ outcome: 'duplicate' });
      await expect(receiver.store.lastRetentionRun()).resolves.toMatchObject({ events: 1, rejections: 1 });
    } finally {
      await receiver.cleanup();
    }
  });
});
