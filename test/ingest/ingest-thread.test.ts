import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIngestThread, type IngestThread } from '../../src/ingest/ingest-thread';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { approvalNotification, nextPgCno } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { createTestSchema, TEST_POSTGRES_URL, type TestSchema } from '../store/pg-test-database';

/** Long enough for a loaded CI machine; the wait ends as soon as the answer is there. */
const ANSWER_CAP_MS = 60_000;

/**
 * Posts one notification from another process and writes the answer to `out`: that process's
 * request never needs this thread's event loop, which the test holds meanwhile.
 */
function postFromAnotherProcess(port: number, body: string, out: string): void {
  const script = `
    const http = require('node:http'); const fs = require('node:fs');
    const req = http.request({ host: '127.0.0.1', port: ${port}, path: '/notifications', method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(process.env.BODY) } }, (res) => {
      let text = ''; res.on('data', (c) => (text += c));
      res.on('end', () => { fs.writeFileSync(process.env.OUT + '.part', res.statusCode + ' ' + text); fs.renameSync(process.env.OUT + '.part', process.env.OUT); });
    });
    req.on('error', (e) => { fs.writeFileSync(process.env.OUT, 'error ' + e.message); });
    req.end(process.env.BODY);`;
  spawn(process.execPath, ['-e', script], { env: { BODY: body, OUT: out, PATH: process.env.PATH ?? '' }, stdio: 'ignore' }).unref();
}

/** Holds this thread's event loop (no callback, timer or message of this thread runs) until `file` exists. */
function holdLoopUntilExists(file: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + ANSWER_CAP_MS;
  while (!existsSync(file) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 5);
}

const databases: Array<[string, () => Promise<{ url: string; drop: () => Promise<void> }>]> = [
  ['SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ingest-thread-'));
    return { url: `sqlite:${join(dir, 'receiver.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }],
];
if (TEST_POSTGRES_URL) {
  databases.push(['PostgreSQL', async () => {
    const schema: TestSchema = await createTestSchema();
    return { url: schema.url, drop: schema.drop };
  }]);
} else {
  console.warn('skipping the PostgreSQL cases of the ingest thread: set TEST_POSTGRES_URL to run them');
}

describe.each(databases)("the gateway's listener on its own thread (%s)", (_name, database) => {
  let db: { url: string; drop: () => Promise<void> };
  let stores: Stores;
  let ingest: IngestThread | null;
  let lost: string[];
  let outDir: string;

  beforeEach(async () => {
    db = await database();
    outDir = mkdtempSync(join(tmpdir(), 'ingest-answers-'));
    stores = await openStores(db.url, { exclusive: true, projector: false });
    lost = [];
    ingest = await startIngestThread({
      simulatorKeys: [],
      writerPorts: stores.writerPorts,
      onLost: (reason) => lost.push(reason),
      env: { PATH: process.env.PATH, DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', EXTRA_ALLOWED_IPS: '127.0.0.1', LOG_LEVEL: 'error' },
    });
  });
  afterEach(async () => {
    await ingest?.drain(1000);
    await stores.store.close();
    await db.drop();
    rmSync(outDir, { recursive: true, force: true });
  });

  it("acks and commits a notification while the main thread's event loop is held", async () => {
    const pgCno = nextPgCno();
    const out = join(outDir, 'answer');
    postFromAnotherProcess(ingest!.port, JSON.stringify(approvalNotification({ pgCno })), out);
    holdLoopUntilExists(out);
    expect(readFileSync(out, 'utf8')).toBe('200 {"resCd":"0000","resMsg":"SUCCESS"}');
    // Committed, not only answered: the main thread's store finds it.
    const rows = await stores.store.listEvents({ limit: 10 });
    expect(rows.map((row) => row.pgCno)).toEqual([pgCno]);
  }, 2 * ANSWER_CAP_MS);

  it("counts its acks and reports its loop's delay to the main thread", async () => {
    const out = join(outDir, 'answer');
    postFromAnotherProcess(ingest!.port, JSON.stringify(approvalNotification({ pgCno: nextPgCno() })), out);
    await eventually(() => existsSync(out), ANSWER_CAP_MS, 'the answer');
    const metrics = await ingest!.metrics();
    const accepted = metrics?.find((metric) => metric.name === 'noti_receiver_notifications_total')?.values
      .find((value) => value.labels.outcome === 'accepted' && value.labels.noti_type === '10');
    expect(accepted?.value).toBe(1);
    const health = await eventually(async () => {
      const answer = await ingest!.health();
      return answer.loopDelayP99Ms !== null && answer;
    }, ANSWER_CAP_MS, 'a loop delay sample');
    expect(health.answering).toBe(true);
    expect(health.loopDelayP99Ms).toBeGreaterThanOrEqual(0);
  }, 3 * ANSWER_CAP_MS);

  it('tells its supervisor when the thread ends without being drained', async () => {
    await ingest!.terminate();
    await eventually(() => lost.length > 0, ANSWER_CAP_MS, 'the supervisor to be told');
    expect(lost[0]).toMatch(/gateway listener's thread ended/);
    ingest = null;
  }, 2 * ANSWER_CAP_MS);
});
