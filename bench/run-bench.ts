import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSource, notificationPool, runLoad, type LoadSource } from './load';
import { REPO_ROOT, startBareServer, startReceiver, type RunningProcess } from './processes';
import { tailQueueFile } from './queue-tail';
import { seedInbox } from './seed-inbox';
import { receiveToQueueStats, summaryTable, type PhaseResult } from './summary-table';

/**
 * `npm run bench`: the bare Express ceiling, then the built receiver under the same load:
 * on an empty database, paced at a rate its relay sustains, with its relay stalled (the ack
 * path alone), and on a database holding BENCH_SEED_ROWS delivered events.
 */
const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 15);
const WARMUP_S = 3;
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 500);
const SEED_ROWS = Number(process.env.BENCH_SEED_ROWS ?? 1_000_000);
const POOL_SIZE = Number(process.env.BENCH_POOL ?? 200_000);
const DRAIN_LIMIT_MS = 120_000;
const PORT = 18_180;
const ADMIN_PORT = 18_181;
const URL = `http://127.0.0.1:${PORT}/notifications`;
const ADMIN = `http://127.0.0.1:${ADMIN_PORT}`;

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<void> {
  // Other processes on the machine skew every phase; the load average says whether they did.
  log(`${cpus().length} CPUs, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  log(`building ${POOL_SIZE} notifications (all event types, EUC-KR event 70 included)`);
  const pool = notificationPool(POOL_SIZE);
  const results: PhaseResult[] = [];
  const work = mkdtempSync(join(tmpdir(), 'noti-bench-'));
  try {
    log('bare Express');
    const bare = await startBareServer(PORT);
    results.push({ phase: 'bare express', ...(await saturate(bare, loadSource(pool))) });
    await bare.stop();

    log('receiver, empty inbox: saturated, then paced');
    const empty = join(work, 'empty');
    await withReceiver(empty, 'events.ndjson', async (receiver) => {
      const source = loadSource(pool);
      results.push({ phase: 'receiver, empty inbox', ...(await saturateAndDrain(receiver, source, join(empty, 'events.ndjson'))) });
      results.push({ phase: `receiver, paced ${PACED_RATE}/s`, ...(await paced(receiver, source, join(empty, 'events.ndjson'))) });
    });

    log('receiver, relay stalled (QUEUE_URL=file:/dev/full): the ack path alone');
    const stalled = join(work, 'stalled');
    await withReceiver(stalled, '/dev/full', async (receiver) => {
      results.push({ phase: 'receiver, relay stalled', ...(await saturate(receiver, loadSource(pool))) });
    });

    log(`seeding ${SEED_ROWS} delivered events`);
    const seeded = join(work, 'seeded');
    const seed = await seedInbox(join(seeded, 'receiver.db'), SEED_ROWS);
    log(`seeded in ${seed.seconds.toFixed(1)} s, database ${seed.sizeMb.toFixed(0)} MB`);
    await withReceiver(seeded, 'events.ndjson', async (receiver) => {
      const phase = `receiver, ${SEED_ROWS / 1e6}M-row inbox`;
      results.push({ phase, ...(await saturateAndDrain(receiver, loadSource(pool), join(seeded, 'events.ndjson'))) });
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  log(`load average at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  process.stdout.write(`${summaryTable(results, results[0]!.requestsPerSecond)}\n`);
  const file = join(REPO_ROOT, 'dist-bench', 'bench-results.json');
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), cpus: cpus().length, loadavg: loadavg(), connections: CONNECTIONS, durationSeconds: DURATION_S, results }, null, 2));
  log(`raw results in ${file}`);
}

async function withReceiver(dir: string, queueFile: string, run: (receiver: RunningProcess) => Promise<void>): Promise<void> {
  const receiver = await startReceiver(
    {
      PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PORT: String(ADMIN_PORT), EXTRA_ALLOWED_IPS: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`,
      QUEUE_URL: `file:${queueFile.startsWith('/') ? queueFile : join(dir, queueFile)}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    },
    ADMIN,
  );
  try {
    await run(receiver);
  } finally {
    await receiver.stop();
  }
}

async function saturate(server: RunningProcess, source: LoadSource): Promise<Omit<PhaseResult, 'phase'>> {
  await runLoad(URL, source, { connections: CONNECTIONS, durationSeconds: WARMUP_S });
  server.resetPeakRss();
  const result = await runLoad(URL, source, { connections: CONNECTIONS, durationSeconds: DURATION_S });
  return { ...result, peakRssMb: server.peakRssMb() };
}

/** Saturating load, then wait for the relay: the backlog it built is what receive-to-queue shows. */
async function saturateAndDrain(receiver: RunningProcess, source: LoadSource, queueFile: string): Promise<Omit<PhaseResult, 'phase'>> {
  await runLoad(URL, source, { connections: CONNECTIONS, durationSeconds: WARMUP_S });
  await drain();
  receiver.resetPeakRss();
  const started = Date.now();
  const tail = tailQueueFile(queueFile);
  const result = await runLoad(URL, source, { connections: CONNECTIONS, durationSeconds: DURATION_S });
  const drained = await drain();
  const latencies = tail.stop();
  return {
    ...result,
    peakRssMb: receiver.peakRssMb(),
    ...drained,
    receiveToQueue: receiveToQueueStats(latencies),
    relayPerSecond: latencies.length / ((Date.now() - started) / 1000),
  };
}

/** A rate the relay keeps up with, as real traffic is: receive-to-queue without a backlog. */
async function paced(receiver: RunningProcess, source: LoadSource, queueFile: string): Promise<Omit<PhaseResult, 'phase'>> {
  receiver.resetPeakRss();
  const tail = tailQueueFile(queueFile);
  const result = await runLoad(URL, source, { connections: CONNECTIONS, durationSeconds: DURATION_S, overallRate: PACED_RATE });
  const drained = await drain();
  return { ...result, peakRssMb: receiver.peakRssMb(), ...drained, receiveToQueue: receiveToQueueStats(tail.stop()) };
}

async function drain(): Promise<{ drainSeconds: number; pendingAfterDrain: number }> {
  const started = Date.now();
  let pending = await backlog();
  while (pending > 0 && Date.now() - started < DRAIN_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    pending = await backlog();
  }
  return { drainSeconds: (Date.now() - started) / 1000, pendingAfterDrain: pending };
}

async function backlog(): Promise<number> {
  const body = (await fetch(`${ADMIN}/readyz`).then((r) => r.json())) as { backlog: { pending: number } | null };
  return body.backlog?.pending ?? 0;
}

main().catch((error: Error) => {
  process.stderr.write(`[bench] failed: ${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
