import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalNotification, changeNotification, nextPgCno } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { MAIN_JS, readEventsFile, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { admin, describePostgres, type TestSchema } from '../store/pg-test-database';
import { postAsGateway, postgresReplicas } from './postgres-replicas';

const post = postAsGateway;

async function readyz(r: SpawnedReceiver): Promise<{
  status: string;
  ingest: { answering: boolean; loopDelayP99Ms: number | null } | null;
  relay: { holdsLock: boolean } | null;
  ledger: { behind: number; projector: { here: boolean } } | null;
}> {
  return (await fetch(`http://127.0.0.1:${r.adminPort}/readyz`)).json() as never;
}

async function count(schema: TestSchema, from: string): Promise<number> {
  const [row] = await admin(schema.url, `SELECT count(*)::int AS n FROM ${from}`);
  return Number(row?.n);
}

describe('ROLE on SQLite', () => {
  it('refuses a split role in one line: one process serves a SQLite file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'roles-sqlite-'));
    try {
      const run = spawnSync(process.execPath, [MAIN_JS], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ROLE: 'ingest', DATABASE_URL: `sqlite:${join(dir, 'r.db')}`, PORT: '0', ADMIN_PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        'payment-noti-receiver: invalid ROLE (got "ingest"): ingest needs DATABASE_URL=postgres://…: one process serves a SQLite file and runs every role (ROLE=all); fix it in the environment or .env (see .env.example)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePostgres('the split layout on one PostgreSQL: ingest replicas and operator replicas', () => {
  const replicas = postgresReplicas('roles');

  // Four built receivers started and two killed one after another: minutes on a loaded two-core machine.
  it('ingest replicas ack and relay, the operator runs the console and the ledger, and each duty is taken over when its holder is killed', async () => {
    const { schema } = replicas;
    const queue = join(replicas.dir, 'events.ndjson');
    const env = { QUEUE_URL: `file:${queue}`, ADMIN_TOKEN: 'a-console-token-of-enough-length-0123' };
    const ingestA = await replicas.spawn({ ...env, ROLE: 'ingest' });
    const ingestB = await replicas.spawn({ ...env, ROLE: 'ingest' });
    const operatorA = await replicas.spawn({ ...env, ROLE: 'operator' });

    // What each role listens on: the operator has no gateway listener, an ingest replica no console or API.
    expect(operatorA.logs().find((line) => line.message === 'listening')).toMatchObject({ role: 'operator', port: null });
    expect(ingestA.logs().find((line) => line.message === 'listening')).toMatchObject({ role: 'ingest', apiPort: null });
    expect((await fetch(`http://127.0.0.1:${ingestA.adminPort}/console`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${operatorA.adminPort}/console/sign-in`)).status).toBe(200);
    expect((await readyz(operatorA)).ingest).toBeNull();
    expect((await readyz(ingestA)).ingest?.answering).toBe(true);

    const orders = Array.from({ length: 6 }, () => nextPgCno());
    const answers = await Promise.all(orders.flatMap((pgCno, i) => [
      post((i % 2 ? ingestA : ingestB).url, approvalNotification({ pgCno })),
    ]));
    expect(answers.filter((answer) => answer.resCd !== '0000')).toEqual([]);
    await Promise.all(orders.map((pgCno, i) => post((i % 2 ? ingestB : ingestA).url, changeNotification({ pgCno, cancelAmount: '1000' }))));

    // One relay among the ingest replicas; the ledger is projected by the operator alone.
    await eventually(async () => (await readyz(operatorA)).ledger?.behind === 0, 30_000, "the operator's projector to catch up");
    expect((await readyz(operatorA)).ledger?.projector.here).toBe(true);
    const holders = await Promise.all([ingestA, ingestB].map(async (r) => (await readyz(r)).relay?.holdsLock === true));
    expect(holders.filter(Boolean)).toHaveLength(1);
    await eventually(async () => (await count(schema, "outbox WHERE status <> 'delivered'")) === 0, 30_000, 'every event relayed');

    // The relay's holder dies: the other ingest replica takes the relay over.
    const holder = holders[0] ? ingestA : ingestB;
    const survivor = holder === ingestA ? ingestB : ingestA;
    holder.child.kill('SIGKILL');
    await holder.exited;
    const late = nextPgCno();
    expect(await post(survivor.url, approvalNotification({ pgCno: late }))).toEqual({ status: 200, resCd: '0000' });
    await eventually(() => readEventsFile(queue, { whileWriting: true }).some((event) => event.pgCno === late), 30_000, 'the late event relayed by the survivor');

    // The operator dies: a second one takes the projector over.
    const operatorB = await replicas.spawn({ ...env, ROLE: 'operator' });
    operatorA.child.kill('SIGKILL');
    await operatorA.exited;
    const later = approvalNotification({ pgCno: nextPgCno() });
    expect(await post(survivor.url, later)).toEqual({ status: 200, resCd: '0000' });
    await eventually(async () => {
      const ready = await readyz(operatorB);
      return ready.ledger?.projector.here === true && ready.ledger.behind === 0;
    }, 30_000, 'the second operator to take the projector over and catch up');
    expect(await count(schema, `ledger_orders WHERE shop_order_no = '${later.shopOrderNo}'`)).toBe(1);
  }, 180_000);
});
