import type { ConflictRow } from '../../src/store/store';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { seededReceiver } from './seeded-receiver';

describe('noti-receiver conflicts show', () => {
  it('masks personal data nested inside an unknown field, as the logs do', async () => {
    const receiver = seededReceiver();
    try {
      const stored = { ...approvalNotification(), buyer: { cardNo: '5361481234561234', holderName: 'Hong Gildong' } };
      const conflicting = { ...stored, buyer: { cardNo: '4111111111111111', holderName: 'Kim Cheolsu' } };
      for (const body of [stored, conflicting]) expect((await receiver.postJson(body as unknown as Record<string, string>)).status).toBe(200);
      const [row] = (await receiver.cli(['conflicts', 'list', '--json'])).json<ConflictRow[]>();
      const human = await receiver.cli(['conflicts', 'show', String(row!.id)]);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/buyer/);
      expect(human.stdout).toContain('************1234');
      expect(human.stdout).toContain('************1111');
      expect(human.stdout).not.toMatch(/5361481234561234|4111111111111111|Gildong|Cheolsu/);
    } finally {
      await receiver.cleanup();
    }
  });
});
