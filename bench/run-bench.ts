import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSource, notificationPool, runLoad, type LoadResult } from './load';
import { REPO_ROOT, startBareServer, startReceiver, type RunningProcess } from './processes';
import { histogramQuantile, parseHistogram } from './prom-histogram';
import { seedInbox } from './seed-inbox';

/**
 * `npm run bench`: the bare Express ceiling, then the built receiver on an empty database,
 * then on one holding BENCH_SEED_ROWS delivered events, all under the same load.
 */
const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 15);
const WARMUP_S = 3;
const SEED_ROWS = Number(process.env.BENCH_SEED_ROWS ?? 1_000_000);
const POOL_SIZE = Number(process.env.BENCH_POOL ?? 160_000);
const DRAIN_LIMIT_MS = 120_000;
const PORT = 18_180;
const ADMIN_PORT = 18_181;

interface PhaseResult extends LoadResult {
  phase: string;
  peakRssMb?: number;
  receiveToQueue?: { p50Ms: number; p99Ms: number; meanMs: number; count: number };
  drainSeconds?: number;
  pendingAfterDrain?: number;
}

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  log(`building ${POOL_SIZE} notifications (all event types, EUC-KR event 70 included)`);
  const pool = notificationPool(POOL_SIZE);
  const url = `http://127.0.0.1:${PORT}/notifications`;
  const results: PhaseResult[] = [];
  const work = mkdtempSync(join(tmpdir(), 'noti-bench-'));

  try {
    log('phase 1: bare Express');
    const bare = await startBareServer(PORT);
    results.push({ phase: 'bare express', ...(await measure(bare, url, loadSource(pool))) });
    await bare.stop();

    log('phase 2: receiver, empty inbox');
    results.push({ phase: 'receiver, empty inbox', ...(await measureReceiver(join(work, 'empty'), url, pool)) });

    log(`phase 3: seeding ${SEED_ROWS} rows`);
    const seeded = join(work, 'seeded');
    const seed = await seedInbox(join(seeded, 'receiver.db'), SEED_ROWS);
    log(`seeded in ${seed.seconds.toFixed(1)} s, database ${seed.sizeMb.toFixed(0)} MB`);
    results.push({ phase: `receiver, ${SEED_ROWS / 1e6}M-row inbox`, ...(await measureReceiver(seeded, url, pool)) });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const bareRps = results[0]!.requestsPerSecond;
  process.stdout.write(`${summaryTable(results, bareRps)}\n`);
  const file = join(REPO_ROOT, 'dist-bench', 'bench-results.json');
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION_S, results }, null, 2));
  log(`raw results in ${file}`);
}

async function measure(server: RunningProcess, url: string, source: ReturnType<typeof loadSource>): Promise<LoadResult & { peakRssMb: number }> {
  await runLoad(url, source, { connections: CONNECTIONS, durationSeconds: WARMUP_S });
  server.resetPeakRss();
  const result = await runLoad(url, source, { connections: CONNECTIONS, durationSeconds: DURATION_S });
  return { ...result, peakRssMb: server.peakRssMb() };
}

async function measureReceiver(dir: string, url: string, pool: ReturnType<typeof notificationPool>): Promise<Omit<PhaseResult, 'phase'>> {
  const admin = `http://127.0.0.1:${ADMIN_PORT}`;
  const receiver = await startReceiver(
    {
      PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PORT: String(ADMIN_PORT), EXTRA_ALLOWED_IPS: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, QUEUE_URL: `file:${join(dir, 'events.ndjson')}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    },
    admin,
  );
  try {
    const load = await measure(receiver, url, loadSource(pool));
    // The relay forwards after the acks; how long it trails is the receive-to-queue latency.
    const drainStarted = Date.now();
    let pending = await backlog(admin);
    while (pending > 0 && Date.now() - drainStarted < DRAIN_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      pending = await backlog(admin);
    }
    const metrics = await fetch(`${admin}/metrics`).then((r) => r.text());
    const histogram = parseHistogram(metrics, 'noti_receiver_receive_to_queue_seconds');
    return {
      ...load,
      peakRssMb: receiver.peakRssMb(),
      drainSeconds: (Date.now() - drainStarted) / 1000,
      pendingAfterDrain: pending,
      receiveToQueue: histogram ? {
        p50Ms: histogramQuantile(histogram, 0.5) * 1000,
        p99Ms: histogramQuantile(histogram, 0.99) * 1000,
        meanMs: (histogram.sum / Math.max(1, histogram.count)) * 1000,
        count: histogram.count,
      } : undefined,
    };
  } finally {
    await receiver.stop();
  }
}

async function backlog(admin: string): Promise<number> {
  const body = (await fetch(`${admin}/readyz`).then((r) => r.json())) as { backlog: { pending: number } | null };
  return body.backlog?.pending ?? 0;
}

function summaryTable(results: PhaseResult[], bareRps: number): string {
  const rows = results.map((r) => [
    r.phase,
    r.requestsPerSecond.toFixed(0),
    (r.requestsPerSecond / bareRps).toFixed(2),
    r.latencyP50Ms.toFixed(1),
    r.latencyP99Ms.toFixed(1),
    String(r.non2xx + r.errors + r.timeouts),
    (r.peakRssMb ?? 0).toFixed(0),
    r.receiveToQueue ? `${r.receiveToQueue.p50Ms.toFixed(0)} / ${r.receiveToQueue.p99Ms.toFixed(0)}` : '-',
    r.drainSeconds === undefined ? '-' : `${r.drainSeconds.toFixed(1)}${r.pendingAfterDrain ? ` (${r.pendingAfterDrain} left)` : ''}`,
    r.poolExhausted ? 'yes' : 'no',
  ]);
  const headers = ['phase', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'bad', 'peak RSS MB', 'recv→queue p50/p99 ms', 'drain s', 'pool reused'];
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

main().catch((error: Error) => {
  process.stderr.write(`[bench] failed: ${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
