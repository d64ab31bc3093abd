import { backendPids, backendsCpuUs } from './postgres-server';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { NOTI_TYPES, type NotiType } from '../src/notifications/event-types';
import type { ProjectedBatch } from '../src/ledger/sql/project-ledger';
import { inboxEntries } from './inbox-entries';
import { loadSource } from './load';
import { createBenchSchema } from './postgres-schema';
import { REPO_ROOT } from './processes';

/**
 * The ledger's projector alone (issue 29): N notifications recorded through the store's normal
 * path with the projector off (one in five a redelivery, as under the bench's load), then the
 * projector started on that backlog and timed until it has applied all of it. Through the built
 * store (dist/, or PROJ_DIST: another tree's build, to compare two in alternated runs).
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/projector-throughput.js
 *
 * Prints per store: notifications/s, CPU per notification of this process (all its threads: the
 * SQLite writer included) and, on PostgreSQL, of the server's backends serving it; statements and
 * round trips per batch (PostgreSQL: queries sent in one turn of the event loop count as one trip);
 * bytes per notification the process passed to write() (SQLite: WAL and checkpoints; PostgreSQL:
 * what the client sent); and the time between batch commits (the first includes the projector's
 * start; on a loaded machine these are wall times, the CPU figures are the robust ones), and how
 * long each batch held the writer (its write's round trip; on a build from before issue 37, whose
 * batch ran whole on the writer, the batch's time).
 *
 * PROJ_STORES (`sqlite,postgres`), PROJ_N (5000), PROJ_RUNS (3: fresh store each, median shown),
 * PROJ_TYPES (`all`: every notification type, as the bench's load; `10`: approvals only, one
 * order each), PROJ_BATCH (the store's default when unset), PROJ_DIST (the build to measure).
 */
const STORES = (process.env.PROJ_STORES ?? 'sqlite,postgres').split(',');
const N = Number(process.env.PROJ_N ?? 5000);
const RUNS = Number(process.env.PROJ_RUNS ?? 3);
const TYPES: readonly NotiType[] = (process.env.PROJ_TYPES ?? 'all') === 'all' ? NOTI_TYPES : (process.env.PROJ_TYPES!.split(',') as NotiType[]);
const BATCH = process.env.PROJ_BATCH === undefined ? undefined : Number(process.env.PROJ_BATCH);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
const DIST = process.env.PROJ_DIST ?? join(REPO_ROOT, 'dist');
// A build from before the ledger's runtime left store/ keeps openStores there.
const OPEN_STORES = ['ledger/projector', 'ledger-projector', 'store'].map((folder) => join(DIST, folder, 'open-stores.js')).find((path) => existsSync(path))!;
const { openStores } = require(OPEN_STORES) as typeof import('../src/ledger/projector/open-stores');

/** Statements and trips of every pg client of this process (the projector's batches alone while measured). */
const counters = { queries: 0, trips: 0 };
let inTurn = false;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  counters.queries += 1;
  if (!inTurn) {
    inTurn = true;
    counters.trips += 1;
    setImmediate(() => (inTurn = false));
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

/** Bytes this process passed to write() (all threads). */
const writtenBytes = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

interface Run {
  perSecond: number;
  cpuUsPer: number;
  serverCpuUsPer: number | null;
  batches: number;
  statementsPerBatch: number;
  tripsPerBatch: number;
  bytesPer: number;
  batchMs: { p50: number; p99: number; max: number };
  /** How long each batch held the writer: its write's round trip (issue 37), or the whole batch on a build whose batch ran on the writer. */
  writeMs: { p50: number; p99: number };
}

async function runOnce(kind: string): Promise<Run> {
  let url: string;
  let drop: () => Promise<void>;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'projector-bench-'));
    url = `sqlite:${join(dir, 'receiver.db')}`;
    drop = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    if (!POSTGRES_URL) throw new Error('PostgreSQL needs BENCH_POSTGRES_URL or TEST_POSTGRES_URL');
    const schema = await createBenchSchema(POSTGRES_URL);
    url = schema.url;
    drop = schema.drop;
  }
  try {
    // The backlog, stored as the acks store it, with no projector running.
    const off = await openStores(url, { projector: false });
    const source = loadSource(inboxEntries(TYPES, N));
    const inFlight = 32;
    let issued = 0;
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (issued < N) {
        issued += 1;
        await off.store.record(source.next());
      }
    }));
    await off.store.close();

    const batchTimes: number[] = [];
    const writeTimes: number[] = [];
    let batchStarted = 0;
    const stores = await openStores(url, { projector: { pollMs: 5, ...(BATCH === undefined ? {} : { batch: BATCH }) } });
    const projector = stores.ledger.projector!;
    const pids = kind === 'postgres' ? await backendPids(url) : [];
    Object.assign(counters, { queries: 0, trips: 0 });
    const cpu0 = process.cpuUsage();
    const server0 = backendsCpuUs(pids) / 1e6;
    const bytes0 = writtenBytes();
    const t0 = performance.now();
    batchStarted = t0;
    let batches = 0;
    const done = new Promise<void>((resolve) => {
      projector.onBatch((batch: ProjectedBatch) => {
        const at = performance.now();
        batchTimes.push(at - batchStarted);
        // A build before issue 37 ran the whole batch as one transaction on the writer.
        writeTimes.push(batch.writeMs ?? at - batchStarted);
        batchStarted = at;
        batches += 1;
        if (!batch.more) resolve();
      });
    });
    projector.onFailure((error) => process.stderr.write(`[projector] batch failed: ${error.message}\n`));
    projector.wake();
    // The last batch is the one that is not full: it reads back the ledger's own last events too.
    await done;
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const serverCpu = kind === 'postgres' ? backendsCpuUs(pids) / 1e6 - server0 : null;
    const bytes = writtenBytes() - bytes0;
    const queries = counters.queries;
    const trips = counters.trips;
    const position = await stores.ledger.position();
    if (position.applied.inboxSeq < position.stored.inboxSeq) process.stderr.write(`[projector] not caught up: ${JSON.stringify(position)}\n`);
    await stores.store.close();
    batchTimes.sort((a, b) => a - b);
    writeTimes.sort((a, b) => a - b);
    const pctOf = (times: number[], p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0;
    const pct = (p: number) => pctOf(batchTimes, p);
    return {
      perSecond: N / seconds,
      cpuUsPer: (cpu.user + cpu.system) / N,
      serverCpuUsPer: serverCpu === null ? null : (serverCpu * 1e6) / N,
      batches,
      statementsPerBatch: kind === 'postgres' ? queries / batches : NaN,
      tripsPerBatch: kind === 'postgres' ? trips / batches : NaN,
      bytesPer: bytes / N,
      batchMs: { p50: pct(50), p99: pct(99), max: batchTimes.at(-1) ?? 0 },
      writeMs: { p50: pctOf(writeTimes, 50), p99: pctOf(writeTimes, 99) },
    };
  } finally {
    await drop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  process.stderr.write(`[projector] N=${N} types=${TYPES.join(',')} dist=${DIST} load=${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  for (const kind of STORES) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await runOnce(kind);
      runs.push(run);
      process.stderr.write(`[projector] ${kind} run ${i + 1}: ${JSON.stringify(run)}\n`);
    }
    const m = (f: (r: Run) => number) => median(runs.map(f));
    console.log([
      `${kind}: ${m((r) => r.perSecond).toFixed(0)} notifications/s`,
      `CPU ${m((r) => r.cpuUsPer).toFixed(0)} µs/notification here`,
      kind === 'postgres' ? `+ ${m((r) => r.serverCpuUsPer!).toFixed(0)} µs in the server` : '',
      `${m((r) => r.batches)} batches`,
      kind === 'postgres' ? `${m((r) => r.statementsPerBatch).toFixed(1)} statements, ${m((r) => r.tripsPerBatch).toFixed(1)} trips per batch` : '',
      // SQLite: the WAL and its checkpoints; PostgreSQL: what the client sent (the server's WAL is shared with other users).
      `${m((r) => r.bytesPer).toFixed(0)} B ${kind === 'sqlite' ? 'written' : 'sent to the server'}/notification`,
      `batch ms p50 ${m((r) => r.batchMs.p50).toFixed(1)} p99 ${m((r) => r.batchMs.p99).toFixed(1)} max ${m((r) => r.batchMs.max).toFixed(1)}`,
      `writer held ms p50 ${m((r) => r.writeMs.p50).toFixed(1)} p99 ${m((r) => r.writeMs.p99).toFixed(1)}`,
    ].filter(Boolean).join(', '));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
