import type { ConflictRow } from '../../src/store/store';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { seededReceiver } from './seeded-receiver';

describe('noti-receiver conflicts', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  const stored = approvalNotification({ amount: '12000', customerName: '홍길동' });
  // Same dedup key, different body: the gateway (or someone) resent it with other values.
  const conflicting = { ...stored, amount: '15000', customerName: '김철수' };

  beforeAll(async () => {
    receiver = seededReceiver();
    for (const body of [stored, stored, conflicting]) expect((await receiver.postJson(body)).status).toBe(200);
  });
  afterAll(() => receiver.cleanup());

  test('list names the stored event and the fields that differ', async () => {
    const result = await receiver.cli(['conflicts', 'list', '--json']);
    expect(result.code).toBe(0);
    const rows = result.json<Array<ConflictRow & { changedFields: string[] }>>();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.changedFields.sort()).toEqual(['amount', 'customerName']);
    expect(rows[0]!.event.pgCno).toBe(stored.pgCno);
  });

  test('show puts stored and conflicting values side by side, names masked for humans', async () => {
    const [row] = (await receiver.cli(['conflicts', 'list', '--json'])).json<ConflictRow[]>();
    const human = await receiver.cli(['conflicts', 'show', String(row!.id)]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/amount\s+12000\s+15000/);
    expect(human.stdout).toMatch(/customerName\s+홍\*\*\s+김\*\*/);
    expect(human.stdout).not.toContain('김철수');

    const json = (await receiver.cli(['conflicts', 'show', String(row!.id), '--json'])).json<{ changes: unknown[] }>();
    expect(json.changes).toContainEqual({ field: 'amount', stored: '12000', conflicting: '15000' });
  });

  test('an unknown conflict id exits 1', async () => {
    const result = await receiver.cli(['conflicts', 'show', '42']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no conflict 42');
  });
});
