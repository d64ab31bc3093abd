import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { EventListing } from '../../src/cli/event-listing';
import { approvalNotification, changeNotification } from '../../src/simulator/notification-builders';
import { seededReceiver } from './seeded-receiver';

describe('noti-receiver events', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  const approval = approvalNotification({ shopOrderNo: 'ORD-CLI-1', customerName: '홍길동', cardNo: '5361-4812-3456-1234' });
  const cancel = changeNotification({ pgCno: approval.pgCno, shopOrderNo: 'ORD-CLI-1' });
  const other = approvalNotification({ shopOrderNo: 'ORD-CLI-2' });

  beforeAll(async () => {
    receiver = seededReceiver();
    for (const body of [approval, cancel, other, approval]) expect((await receiver.postJson(body)).status).toBe(200);
  });
  afterAll(() => receiver.cleanup());

  test('list --json returns every stored event once, a redelivery counted on its event', async () => {
    const result = await receiver.cli(['events', 'list', '--json']);
    expect(result.code).toBe(0);
    const rows = result.json<EventListing[]>();
    expect(rows).toHaveLength(3);
    const stored = rows.find((row) => row.pgCno === approval.pgCno && row.notiType === '10');
    expect(stored).toMatchObject({ status: 'pending', redeliveries: 1, shopOrderNo: 'ORD-CLI-1' });
  });

  test('list --json and show --json name the event id `id`, as the event and its queue message do', async () => {
    const [row] = (await receiver.cli(['events', 'list', '--json', '--order', 'ORD-CLI-2'])).json<Array<Record<string, unknown>>>();
    expect(row).not.toHaveProperty('eventId');
    expect(row!.id).toMatch(/^evt_/);
    const shown = (await receiver.cli(['events', 'show', String(row!.id), '--json'])).json<Record<string, unknown> & { event: { id: string } }>();
    expect(shown).not.toHaveProperty('eventId');
    expect(shown.id).toBe(row!.id);
    expect(shown.event.id).toBe(row!.id);
  });

  test('list filters by notiType or type name, order number and time', async () => {
    const byCode = (await receiver.cli(['events', 'list', '--json', '--type', '20'])).json<EventListing[]>();
    expect(byCode.map((row) => row.type)).toEqual(['payment.changed']);
    const byName = (await receiver.cli(['events', 'list', '--json', '--type', 'payment.approved'])).json<EventListing[]>();
    expect(byName).toHaveLength(2);
    const byOrder = (await receiver.cli(['events', 'list', '--json', '--order', 'ORD-CLI-2'])).json<EventListing[]>();
    expect(byOrder.map((row) => row.pgCno)).toEqual([other.pgCno]);
    const future = (await receiver.cli(['events', 'list', '--json', '--since', '2999-01-01T00:00:00+09:00'])).json<EventListing[]>();
    expect(future).toEqual([]);
    const limited = (await receiver.cli(['events', 'list', '--json', '--limit', '1'])).json<EventListing[]>();
    expect(limited).toHaveLength(1);
  });

  test('the human table shows each event with its code and type', async () => {
    const result = await receiver.cli(['events', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(approval.pgCno);
    expect(result.stdout).toContain('10 payment.approved');
  });

  test('show masks names and card numbers for humans and keeps them intact in --json', async () => {
    const [row] = (await receiver.cli(['events', 'list', '--json', '--order', 'ORD-CLI-1', '--type', '10'])).json<EventListing[]>();
    const human = await receiver.cli(['events', 'show', row!.id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('홍**');
    expect(human.stdout).not.toContain('홍길동');
    expect(human.stdout).not.toContain('5361-4812-3456-1234');
    const json = (await receiver.cli(['events', 'show', row!.id, '--json'])).json<{ event: { data: Record<string, string> } }>();
    expect(json.event.data.customerName).toBe('홍길동');
  });

  test('requeue puts a delivered event back to pending, --dead requeues every dead event', async () => {
    const rows = (await receiver.cli(['events', 'list', '--json'])).json<EventListing[]>();
    await receiver.store.markDelivered([rows[0]!.seq], new Date().toISOString());
    await receiver.store.markDead(rows[1]!.seq, 'queue refused it');
    expect((await receiver.cli(['events', 'list', '--json', '--status', 'dead'])).json<EventListing[]>()).toHaveLength(1);

    expect((await receiver.cli(['events', 'requeue', rows[0]!.id])).code).toBe(0);
    const dead = await receiver.cli(['events', 'requeue', '--dead', '--json']);
    expect(dead.json()).toEqual({ requeued: 1 });

    const after = (await receiver.cli(['events', 'list', '--json', '--status', 'pending'])).json<EventListing[]>();
    expect(after).toHaveLength(3);
  });

  test('an unknown id exits 1 with a message, usage mistakes exit 2', async () => {
    const show = await receiver.cli(['events', 'show', 'evt_unknown']);
    expect(show.code).toBe(1);
    expect(show.stderr).toContain('no event evt_unknown');
    expect((await receiver.cli(['events', 'requeue', 'evt_unknown'])).code).toBe(1);
    expect((await receiver.cli(['events', 'requeue'])).code).toBe(2);
    expect((await receiver.cli(['events', 'list', '--status', 'lost'])).code).toBe(2);
    expect((await receiver.cli(['events', 'list', '--since', 'yesterday'])).code).toBe(2);
    expect((await receiver.cli(['events', 'list', '--limit', '0'])).code).toBe(2);
  });

  test('a bad setting exits 2 and a missing database exits 3', async () => {
    const badEnv = await receiver.cli(['events', 'list'], { GATEWAY_ENV: 'staging' });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('GATEWAY_ENV');
    const missing = await receiver.cli(['events', 'list', '--database-url', 'sqlite:/nonexistent/receiver.db']);
    expect(missing.code).toBe(3);
  });

  test('the built command exits with the documented code', () => {
    // The exit code is the contract scripts use, so it is checked on the real process once.
    const cli = join(__dirname, '..', '..', 'dist', 'cli', 'receiver-cli.js');
    const run = spawnSync(process.execPath, [cli, 'events', 'show', 'evt_unknown', '--database-url', receiver.databaseUrl], { encoding: 'utf8' });
    expect(run.stderr).toContain('no event evt_unknown');
    expect(run.status).toBe(1);
  });

  test('the built command still answers, and exits with its code, after it wrote to the database', () => {
    // A write starts the checkpointer thread; closing the store must wait for it, or the process,
    // with nothing else to do, ended before the message and the exit code (it exited 0, silent).
    const cli = join(__dirname, '..', '..', 'dist', 'cli', 'receiver-cli.js');
    const requeue = spawnSync(process.execPath, [cli, 'events', 'requeue', 'evt_unknown', '--database-url', receiver.databaseUrl], { encoding: 'utf8' });
    expect(requeue.stderr).toContain('no event evt_unknown');
    expect(requeue.status).toBe(1);
    const prune = spawnSync(process.execPath, [cli, 'retention', 'prune', '--json', '--database-url', receiver.databaseUrl], { encoding: 'utf8' });
    expect(JSON.parse(prune.stdout)).toMatchObject({ events: 0, rejections: 0, conflicts: 0 });
    expect(prune.status).toBe(0);
  });
});
