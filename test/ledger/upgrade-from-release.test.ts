import { execFileSync, execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { changeNotification, approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { postAsGateway } from '../process/postgres-replicas';
import { admin, createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';

/**
 * A store the last release built, opened by this one. The release before the ledger became one
 * component is taken from git, built, and run as the service: a month's stories (simulated and
 * real, every fault the simulator can tell, redeliveries, a long order of 1-won cancels delivered
 * out of order) through its real listener, its projector and relay, until everything is
 * projected and forwarded. This build then opens the same database, as the service does (and
 * migrates it): every order, the discrepancies and the day's totals read through the internal API
 * byte for byte as the release answered; nothing is forwarded again; `ledger rebuild` changes no
 * record and sends nothing; and a new input goes on from there, on SQLite and on PostgreSQL with
 * two replicas.
 */
const RELEASE = '195c1434b257ce93cb2c8126cb83e708e9857eda';
const REPO = resolve(__dirname, '..', '..');
const API_TOKEN = 'upgrade-release-token-5e1c0b7a93';
const GATEWAY_IP = '61.33.205.151';
const MALL = 'T0001234';
const LONG_ORDER = 'ORD-UPGRADE-LONG';
const LONG_PG_CNO = '26120212000000000001';
const LONG_CANCELS = 120;

function releaseAvailable(): string | null {
  try {
    execFileSync('git', ['-C', REPO, 'cat-file', '-e', `${RELEASE}^{commit}`], { stdio: 'ignore' });
    return null;
  } catch {
    return `the release ${RELEASE.slice(0, 7)} is not in this checkout's git history (a shallow clone?)`;
  }
}

const unavailable = releaseAvailable();
if (unavailable) process.stderr.write(`upgrade-from-release: skipped: ${unavailable}\n`);
const describeRelease = unavailable ? describe.skip : describe;

/** The release's tree from git, built as `npm run build` builds it, with this checkout's node_modules. */
function buildRelease(): { dir: string; mainJs: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'noti-release-'));
  execSync(`git -C ${JSON.stringify(REPO)} archive ${RELEASE} | tar -x -C ${JSON.stringify(dir)}`, { stdio: 'ignore' });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'ignore' });
  return { dir, mainJs: join(dir, 'dist', 'main.js'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function simulate(url: string, env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const cli = join(REPO, 'dist', 'simulator', 'simulate-cli.js');
  const child = spawn(process.execPath, [cli, '--url', url, '--forwarded-for', GATEWAY_IP, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((done) => child.on('exit', (code) => done({ code, stderr })));
}

function cli(env: Record<string, string>, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [join(REPO, 'dist', 'cli', 'receiver-cli.js'), ...args], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { status: 0, stdout, stderr: '' };
  } catch (error) {
    const failed = error as { status: number | null; stdout: string; stderr: string };
    return { status: failed.status, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const kst = (minutesAfter: number) => {
  const at = new Date(Date.UTC(2026, 11, 1, 1, 0, 0) + minutesAfter * 60_000 + 9 * 3600_000);
  return at.toISOString().replace(/\D/g, '').slice(0, 14);
};
const longCancel = (n: number) =>
  changeNotification({ mallId: MALL, shopOrderNo: LONG_ORDER, pgCno: LONG_PG_CNO, cancelPgCno: `2612021200${String(100000 + n).padStart(10, '0')}`, cancelAmount: '1', cancelRemainAmount: String(100000 - n - 1), amount: '1', cancelDate: kst(10 + n), statusCode: 'TS06' });

/** What a consumer and the internal API see of the ledger: every order's answer, the discrepancies, the day's totals, the forwarded events. */
interface Seen {
  orders: Map<string, string>;
  discrepancies: string;
  summary: string;
  events: string[];
}

async function apiText(receiver: SpawnedReceiver, path: string): Promise<string> {
  const answer = await fetch(`http://127.0.0.1:${receiver.apiPort}${path}`, { headers: { Authorization: `Bearer ${API_TOKEN}` } });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${text}`);
  return text;
}

interface Db {
  env: Record<string, string>;
  dir: string;
  /** Rows of a query on the database as it stands (read-only use). */
  rows(sql: string): Promise<Array<Record<string, unknown>>>;
}

async function seen(receiver: SpawnedReceiver, db: Db, orderKeys: ReadonlyArray<{ mall_id: string; shop_order_no: string }>): Promise<Seen> {
  const orders = new Map<string, string>();
  for (const key of orderKeys) orders.set(`${key.mall_id}/${key.shop_order_no}`, await apiText(receiver, `/v1/orders/${encodeURIComponent(key.mall_id)}/${encodeURIComponent(key.shop_order_no)}`));
  return {
    orders,
    discrepancies: await apiText(receiver, '/v1/discrepancies?limit=500'),
    summary: await apiText(receiver, '/v1/summary/daily?from=2026-11-01&to=2026-12-31'),
    events: readFileSync(join(db.dir, 'events.ndjson'), 'utf8').split('\n').filter(Boolean),
  };
}

/** Every stored input projected and every outbox row delivered (the relay and the projector are done). */
async function settled(db: Db): Promise<void> {
  await eventually(async () => {
    const [state] = await db.rows(`SELECT
      (SELECT inbox_seq FROM ledger_projector WHERE id = 1) AS at, (SELECT MAX(seq) FROM inbox) AS inbox_end,
      (SELECT input_seq FROM ledger_projector WHERE id = 1) AS input_at, (SELECT COALESCE(MAX(seq), 0) FROM ledger_inputs) AS inputs_end,
      (SELECT COUNT(*) FROM outbox WHERE status = 'pending') AS pending`);
    return state !== undefined && Number(state.at) >= Number(state.inbox_end) && Number(state.input_at) >= Number(state.inputs_end) && Number(state.pending) === 0;
  }, 120_000, 'every stored input projected and every event delivered');
}

async function stop(receiver: SpawnedReceiver): Promise<void> {
  receiver.child.kill('SIGTERM');
  await receiver.exited;
}

/** The release, built once for both databases' stories. */
let built: ReturnType<typeof buildRelease> | null = null;
afterAll(() => built?.cleanup());

function upgradeStory(open: () => Promise<Db & { cleanup(): Promise<void> }>, replicas: number): void {
  let release: ReturnType<typeof buildRelease>;
  let db: Db & { cleanup(): Promise<void> };
  const running: SpawnedReceiver[] = [];
  beforeAll(() => {
    release = built ??= buildRelease();
  }, 600_000);
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
    await db.cleanup();
  });
  const start = async (mainJs?: string) => {
    const receiver = await spawnReceiver(db.dir, { ...db.env, API_TOKEN, QUEUE_URL: `file:${join(db.dir, 'events.ndjson')}`, LEDGER_GRACE_SECONDS: '1' }, mainJs);
    running.push(receiver);
    return receiver;
  };

  test('every order, discrepancy and day total reads as the release left it; nothing is sent again; a rebuild changes nothing; new inputs go on', async () => {
    const old = await start(release.mainJs);
    const signed = await simulate(old.url, { API_TOKEN }, '--event', 'all', '--count', '2', '--faults', 'amount-mismatch,payment-after-expiry,double-payment,over-cancel,remaining-mismatch,refund-fails', '--api-url', `http://127.0.0.1:${old.apiPort}`, '--duplicates', '1');
    expect(signed).toMatchObject({ code: 0 });
    const real = await simulate(old.url, { API_TOKEN: 'another-receivers-token-0c9d' }, '--event', 'all', '--count', '2', '--faults', 'double-payment,over-cancel,remaining-mismatch,refund-fails');
    expect(real).toMatchObject({ code: 0 });
    expect(await postAsGateway(old.url, approvalNotification({ mallId: MALL, shopOrderNo: LONG_ORDER, pgCno: LONG_PG_CNO, amount: '100000', transactionDate: kst(0) }))).toMatchObject({ status: 200 });
    // Out of order: the later half first, then the earlier half backwards.
    const order = [...Array.from({ length: LONG_CANCELS / 2 }, (_, i) => LONG_CANCELS / 2 + i), ...Array.from({ length: LONG_CANCELS / 2 }, (_, i) => LONG_CANCELS / 2 - 1 - i)];
    for (const n of order) expect(await postAsGateway(old.url, longCancel(n))).toMatchObject({ status: 200 });
    await settled(db);
    // The grace kinds open on the sweep once the inputs have been still.
    await eventually(async () => Number((await db.rows("SELECT COUNT(DISTINCT kind) AS n FROM ledger_discrepancies WHERE kind IN ('over_cancel', 'remaining_mismatch')"))[0]!.n) === 2, 90_000, 'the grace kinds opened by the sweep').catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await db.rows('SELECT kind, COUNT(*) AS n FROM ledger_discrepancies GROUP BY kind'))}`);
    });
    await settled(db);
    const keys = (await db.rows('SELECT mall_id, shop_order_no FROM ledger_orders ORDER BY order_id')) as Array<{ mall_id: string; shop_order_no: string }>;
    expect(keys.length).toBeGreaterThan(30);
    const before = await seen(old, db, keys);
    expect(JSON.parse(before.orders.get(`${MALL}/${LONG_ORDER}`)!)).toMatchObject({ cancelled: LONG_CANCELS, remaining: 100000 - LONG_CANCELS });
    await stop(old);

    const upgraded = await start();
    const more = await Promise.all(Array.from({ length: replicas - 1 }, () => start()));
    await settled(db);
    for (const receiver of [upgraded, ...more]) expect(await seen(receiver, db, keys)).toEqual(before);

    for (const receiver of [upgraded, ...more]) await stop(receiver);
    running.length = 0;
    const rebuilt = cli({ ...db.env, LEDGER_GRACE_SECONDS: '1' }, 'ledger', 'rebuild', '--json');
    expect(rebuilt).toMatchObject({ status: 0 });
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ orders: keys.length, changed: 0 });
    const again = await start();
    const others = await Promise.all(Array.from({ length: replicas - 1 }, () => start()));
    await settled(db);
    expect(await seen(again, db, keys)).toEqual(before);

    // One more cancel on the long order, to the last replica: one update, told once.
    const last = others.at(-1) ?? again;
    expect(await postAsGateway(last.url, longCancel(LONG_CANCELS))).toMatchObject({ status: 200 });
    await settled(db);
    const after = await seen(again, db, keys);
    expect(JSON.parse(after.orders.get(`${MALL}/${LONG_ORDER}`)!)).toMatchObject({ cancelled: LONG_CANCELS + 1, remaining: 100000 - LONG_CANCELS - 1 });
    const sent = after.events.slice(before.events.length).map((line) => JSON.parse(line) as { type: string });
    expect(sent.map((e) => e.type)).toEqual(['payment.changed', 'order.updated']);
    for (const [key, text] of before.orders) if (key !== `${MALL}/${LONG_ORDER}`) expect(after.orders.get(key)).toBe(text);
  }, 900_000);
}

describeRelease('a store the last release built, opened by this one (SQLite)', () => {
  upgradeStory(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-upgrade-sqlite-'));
    const file = join(dir, 'receiver.db');
    return {
      dir,
      env: { DATABASE_URL: `sqlite:${file}` },
      async rows(sql) {
        if (!existsSync(file)) return [];
        const connection = new Database(file, { readonly: true, fileMustExist: true });
        try {
          return connection.prepare(sql).all() as Array<Record<string, unknown>>;
        } finally {
          connection.close();
        }
      },
      async cleanup() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }, 1);
});

describePostgres('a store the last release built, opened by this one (PostgreSQL, two replicas)', () => {
  if (unavailable) return;
  upgradeStory(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-upgrade-pg-'));
    const schema: TestSchema = await createTestSchema();
    return {
      dir,
      env: { DATABASE_URL: schema.url },
      rows: (sql) => admin(schema.url, sql),
      async cleanup() {
        await schema.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }, 2);
});
