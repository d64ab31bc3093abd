import type { EventListing } from '../../src/cli/event-listing';
import type { RejectionRow } from '../../src/store/store';
import { openStore } from '../../src/store/open-store';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { admin, createTestSchema, describePostgres, TEST_POSTGRES_URL, type TestSchema } from '../store/pg-test-database';
import { receiverEnv, receiverWith, runCliCaptured } from './seeded-receiver';

describePostgres('noti-receiver on PostgreSQL', () => {
  let schema: TestSchema;
  let receiver: ReturnType<typeof receiverWith>;
  const accepted = approvalNotification({ shopOrderNo: 'ORD-PG-1', customerName: '홍길동' });
  const newMall = approvalNotification({ mallId: 'T0009999', shopOrderNo: 'ORD-PG-NEW-MALL' });
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCliCaptured(args, { ...receiverEnv({ MALL_IDS: 'T0001234' }), DATABASE_URL: schema.url, ...env });

  beforeAll(async () => {
    schema = await createTestSchema();
    receiver = receiverWith(await openStore(schema.url), { MALL_IDS: 'T0001234' });
    expect((await receiver.postJson(accepted)).status).toBe(200);
    expect((await receiver.postJson(accepted)).status).toBe(200);
    expect((await receiver.postJson(newMall)).status).toBe(400);
  });
  afterAll(async () => {
    await receiver.close();
    await schema.drop();
  });

  test('lists, shows (masked) and requeues events', async () => {
    // The notifications; beside them the payment ledger's status change of their order (notiType '').
    const rows = (await cli(['events', 'list', '--json'])).json<EventListing[]>().filter((row) => row.notiType !== '');
    expect(rows).toEqual([expect.objectContaining({ pgCno: accepted.pgCno, shopOrderNo: 'ORD-PG-1', redeliveries: 1, status: 'pending' })]);
    const shown = await cli(['events', 'show', rows[0]!.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('홍**');
    expect(shown.stdout).not.toContain('홍길동');
    expect((await cli(['events', 'requeue', rows[0]!.id])).code).toBe(0);
    expect((await cli(['events', 'show', 'evt_unknown'])).code).toBe(1);
  });

  test('reprocesses a MALL_IDS rejection into an event once the configuration is fixed', async () => {
    const [rejection] = (await cli(['rejections', 'list', '--json'])).json<RejectionRow[]>();
    expect((await cli(['rejections', 'reprocess', String(rejection!.id)])).code).toBe(1);
    const fixed = await cli(['rejections', 'reprocess', String(rejection!.id), '--json'], { MALL_IDS: 'T0001234,T0009999' });
    expect(fixed.code).toBe(0);
    expect(fixed.json()).toMatchObject({ outcome: 'accepted' });
    const events = (await cli(['events', 'list', '--json', '--order', 'ORD-PG-NEW-MALL'])).json<EventListing[]>();
    expect(events).toEqual([expect.objectContaining({ mallId: 'T0009999', pgCno: newMall.pgCno })]);
  });

  test('against an empty database says there is no receiver database there, exits 3, and creates nothing', async () => {
    const empty = await createTestSchema();
    try {
      for (const args of [['events', 'list'], ['commands', 'list'], ['status', '--admin-url', 'http://127.0.0.1:9']]) {
        const result = await cli(args, { DATABASE_URL: empty.url });
        expect(result.code).toBe(3);
        expect(result.stderr + result.stdout).toMatch(/no receiver database/);
      }
      const tables = await admin(TEST_POSTGRES_URL!, 'SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [empty.name]);
      expect(tables).toEqual([]);
    } finally {
      await empty.drop();
    }
  });
});
