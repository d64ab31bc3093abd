import { fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { NOTI_TYPES } from '../src/notifications/event-types';
import type { Store } from '../src/store/store';
import { LatencySamples } from './latency-samples';
import { inboxEntries } from './inbox-entries';
import { loadSource } from './load';
import { createBenchSchema } from './postgres-schema';
import { REPO_ROOT } from './processes';

/**
 * The store alone, without HTTP: M notifications recorded with K `store.record` calls in
 * flight (closed loop), through the built store (dist/: openStores, the real procedures, group commit)
 * on PostgreSQL, optionally with several stores (replicas) on one schema, or on SQLite.
 * Prints records/s, record() latency, and for PostgreSQL the round trips and transactions per
 * notification and how long transactions waited for the outbox-order lock.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/store-throughput.js
 *
 * STORE_URL (default BENCH_POSTGRES_URL or TEST_POSTGRES_URL; `sqlite` for a temporary file),
 * STORE_K (`1,32,128`), STORE_M (4000 per run), STORE_REPLICAS (`1,2`: stores on one schema,
 * K split between them), STORE_RUNS (1: runs per row, each on a fresh schema; the median is shown),
 * STORE_DIST (the build to measure, default ./dist), STORE_LINK_MS (PostgreSQL behind a proxy that
 * delays each direction by this many ms, as a database on another host: its round trips then cost
 * what they do in production, not what they do over loopback).
 * Like the HTTP bench, one record in five repeats a recent notification.
 */
const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const URL_ARG = env('STORE_URL', process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'sqlite');
const KS = env('STORE_K', '1,32,128').split(',').map(Number);
const M = Number(env('STORE_M', '4000'));
const REPLICAS = env('STORE_REPLICAS', '1,2').split(',').map(Number);
const RUNS = Number(env('STORE_RUNS', '1'));
const LINK_MS = Number(env('STORE_LINK_MS', '0'));
const WARMUP = 300;
/** STORE_PROJECTOR=off: the ledger's projector not running (what it costs the acks, on SQLite). */
const PROJECTOR = process.env.STORE_PROJECTOR !== 'off';
/** The rows of each projector batch (SQLite), printed at the end: how much one batch holds the writer for. */
const projectorBatchRows: number[] = [];

/** Every query any pg client of this process sends; the bench opens no other pg connection while measuring. */
const counters = { queries: 0, begins: 0, lockWaits: 0, lockWaitMs: 0 };
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  const config = args[0];
  const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text ?? '';
  counters.queries += 1;
  if (text.startsWith('BEGIN')) counters.begins += 1;
  const result = (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  if (text.includes('pg_advisory_xact_lock') && result instanceof Promise) {
    const started = performance.now();
    counters.lockWaits += 1;
    void result.then(() => (counters.lockWaitMs += performance.now() - started), () => undefined);
  }
  return result;
} as typeof pg.Client.prototype.query;

interface RunResult {
  perSecond: number;
  p50: number;
  p99: number;
  queriesPer: number;
  transactionsPer: number;
  lockWaitMsPerTx: number;
  outcomes: Record<string, number>;
}

/**
 * The built store, as the receiver runs it (its migrations and SQLite writer thread are found from
 * dist/). STORE_DIST may name another tree's dist/ (with its migrations/ beside it), to compare two
 * builds in alternated runs on a machine whose load moves every figure.
 */
const DIST = process.env.STORE_DIST ?? join(REPO_ROOT, 'dist');
// A build from before the ledger's runtime left store/ keeps openStores there.
const OPEN_STORES = ['ledger/projector', 'ledger-projector', 'store'].map((folder) => join(DIST, folder, 'open-stores.js')).find((path) => existsSync(path))!;
const { openStores } = require(OPEN_STORES) as typeof import('../src/ledger/projector/open-stores');

async function openTarget(replicas: number): Promise<{ stores: Store[]; close(): Promise<void> }> {
  if (URL_ARG === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'store-bench-'));
    const { store, ledger } = await openStores(`sqlite:${join(dir, 'receiver.db')}`, { projector: PROJECTOR });
    ledger.projector?.onBatch((batch) => projectorBatchRows.push(batch.rows));
    return { stores: [store], close: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
  }
  const schema = await createBenchSchema(await storeUrl());
  const stores: Store[] = [];
  try {
    for (let i = 0; i < replicas; i++) stores.push((await openStores(schema.url)).store);
  } catch (error) {
    await Promise.all(stores.map((store) => store.close()));
    await schema.drop();
    throw error;
  }
  return {
    stores,
    close: async () => {
      await Promise.all(stores.map((store) => store.close()));
      await schema.drop();
    },
  };
}

async function runOnce(k: number, replicas: number): Promise<RunResult> {
  const { stores, close } = await openTarget(replicas);
  try {
    const entries = inboxEntries(NOTI_TYPES, WARMUP + M);
    // Four in five fresh, one in five a recent one again, as over HTTP.
    const source = loadSource(entries);
    let issued = 0;
    const drive = async (count: number, samples: LatencySamples | null, outcomes: Record<string, number>) => {
      const worker = async (w: number) => {
        const store = stores[w % stores.length]!;
        while (issued < count) {
          issued += 1;
          const started = performance.now();
          const result = await store.record(source.next());
          samples?.add(performance.now() - started);
          outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: k }, (_, w) => worker(w)));
    };
    await drive(WARMUP, null, {});
    issued = 0;
    Object.assign(counters, { queries: 0, begins: 0, lockWaits: 0, lockWaitMs: 0 });
    const samples = new LatencySamples();
    const outcomes: Record<string, number> = {};
    const started = performance.now();
    await drive(M, samples, outcomes);
    const seconds = (performance.now() - started) / 1000;
    return {
      perSecond: M / seconds,
      p50: samples.percentile(50),
      p99: samples.percentile(99),
      queriesPer: counters.queries / M,
      transactionsPer: counters.begins / M,
      lockWaitMsPerTx: counters.lockWaits ? counters.lockWaitMs / counters.lockWaits : 0,
      outcomes,
    };
  } finally {
    await close();
  }
}

let proxied: string | null = null;

/** URL_ARG, or with STORE_LINK_MS the same database behind a delaying proxy (started once). */
async function storeUrl(): Promise<string> {
  if (LINK_MS <= 0) return URL_ARG;
  if (proxied) return proxied;
  const target = new URL(URL_ARG);
  const proxy = fork(join(__dirname, 'link-delay-proxy.js'), [target.hostname, target.port || '5432', String(LINK_MS)]);
  proxy.unref();
  process.on('exit', () => proxy.kill());
  const [port] = (await once(proxy, 'message')) as [number];
  target.hostname = '127.0.0.1';
  target.port = String(port);
  proxied = target.toString();
  return proxied;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  // The SQLite checkpointer thread is unref'ed: while close() waits for it, nothing else would keep
  // this process alive and it would exit before printing.
  const keepAlive = setInterval(() => undefined, 1000);
  const kind = URL_ARG === 'sqlite' ? 'sqlite' : 'postgres';
  process.stderr.write(`[store-bench] ${kind}${LINK_MS > 0 ? `, ${LINK_MS} ms each way` : ''}, ${DIST}, M=${M}, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}\n`);
  console.log('| store | K | records/s | p50 ms | p99 ms | statements / record | transactions / record | lock wait ms / tx | outcomes |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const replicas of kind === 'sqlite' ? [1] : REPLICAS) {
    for (const k of KS.filter((k) => k >= replicas)) {
      const runs: RunResult[] = [];
      for (let r = 0; r < RUNS; r++) runs.push(await runOnce(k, replicas));
      const mid = runs.find((run) => run.perSecond === median(runs.map((x) => x.perSecond)))!;
      const pgOnly = (text: string) => (kind === 'postgres' ? text : '–');
      console.log(
        `| ${kind}${replicas > 1 ? ` ×${replicas}` : ''} | ${k} | ${mid.perSecond.toFixed(0)}${RUNS > 1 ? ` (${runs.map((run) => run.perSecond.toFixed(0)).join(', ')})` : ''}` +
          ` | ${mid.p50.toFixed(1)} | ${mid.p99.toFixed(1)} | ${pgOnly(mid.queriesPer.toFixed(2))} | ${pgOnly(mid.transactionsPer.toFixed(3))}` +
          ` | ${pgOnly(mid.lockWaitMsPerTx.toFixed(2))} | ${Object.entries(mid.outcomes).map(([o, n]) => `${o} ${n}`).join(', ')} |`,
      );
    }
  }
  if (projectorBatchRows.length > 0) {
    const sorted = [...projectorBatchRows].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
    process.stderr.write(`[store-bench] projector batches ${sorted.length}, rows each p50 ${at(50)} p90 ${at(90)} p99 ${at(99)} max ${sorted.at(-1)}\n`);
  }
  process.stderr.write(`[store-bench] load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}\n`);
  clearInterval(keepAlive);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
