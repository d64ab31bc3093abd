import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresLag, sampleLag, sqliteLag, type LagReader } from './lag-reader';
import { loadSource, NotificationPool, paced, saturate } from './load';
import { createBenchSchema } from './postgres-schema';
import { startReceiver } from './processes';

/**
 * `npm run bench:lag`: the ledger's projector keeping up behind the acks (issue 29). The built
 * receiver on each store takes a paced load (LAG_RATE_SQLITE, default 2000/s; LAG_RATE_POSTGRES,
 * 1000/s; LAG_S seconds, default 60) while the bench reads the projector's lag from the database
 * every 50 ms (the age of the oldest stored notification it has not applied, what
 * noti_receiver_ledger_lag_seconds reports); then a saturating run (LAG_SATURATE_S, 30 s, 64
 * connections) and how long the lag takes to come back to zero after it. LAG_STORES picks the
 * stores (`sqlite,postgres`).
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('LAG_S', 60);
const SATURATE_S = env('LAG_SATURATE_S', 30);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
/** `sqlite,postgres` (default): which stores to measure. */
const STORES = (process.env.LAG_STORES ?? 'sqlite,postgres').split(',');
const PORT = 18_280;
const log = (line: string) => process.stderr.write(`[lag] ${line}\n`);

async function measure(name: string, databaseUrl: string, rate: number, lagReader: () => Promise<LagReader>, work: string): Promise<string> {
  const adminUrl = `http://127.0.0.1:${PORT + 1}`;
  const receiver = await startReceiver({
    PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PORT: String(PORT + 1), EXTRA_ALLOWED_IPS: '127.0.0.1',
    DATABASE_URL: databaseUrl, QUEUE_URL: `file:${join(work, `${name}.ndjson`)}`, LOG_LEVEL: 'warn',
  }, adminUrl);
  const reader = await lagReader();
  try {
    const pool = new NotificationPool();
    const source = loadSource(pool, (size) => pool.growTo(size));
    const url = `http://127.0.0.1:${PORT}/notifications`;
    source.reserve(rate * SECONDS);
    log(`${name}: paced ${rate}/s for ${SECONDS} s, load average ${loadavg()[0]!.toFixed(2)}`);
    const sampler = sampleLag(reader);
    const load = await paced(url, source, { rate, seconds: SECONDS, connections: 32 });
    const lag = await sampler.stop();
    source.reserve(20_000 * SATURATE_S);
    log(`${name}: saturating for ${SATURATE_S} s`);
    const saturated = await saturate([url], source, { connections: 64, seconds: SATURATE_S, warmupSeconds: 0 });
    const ended = Date.now();
    const afterLag = await reader.read();
    while ((await reader.read()) > 0 && Date.now() - ended < 120_000) await new Promise((resolve) => setTimeout(resolve, 50));
    const backToZero = (Date.now() - ended) / 1000;
    return `| ${name} | ${rate}/s, ${load.requestsPerSecond.toFixed(0)} sent/s | ${load.latencyP99Ms.toFixed(1)} ms | ${lag.percentile(50).toFixed(0)} ms | ${lag.percentile(99).toFixed(0)} ms | ${lag.percentile(100).toFixed(0)} ms | ${saturated.requestsPerSecond.toFixed(0)}/s, lag ${(afterLag / 1000).toFixed(1)} s at its end | ${backToZero.toFixed(1)} s |`;
  } finally {
    await reader.close();
    await receiver.stop();
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'noti-lag-'));
  const rows: string[] = [];
  try {
    const file = join(work, 'sqlite', 'receiver.db');
    if (STORES.includes('sqlite')) rows.push(await measure('SQLite', `sqlite:${file}`, env('LAG_RATE_SQLITE', 2000), () => sqliteLag(file), work));
    if (POSTGRES_URL && STORES.includes('postgres')) {
      const schema = await createBenchSchema(POSTGRES_URL);
      try {
        rows.push(await measure('PostgreSQL', schema.url, env('LAG_RATE_POSTGRES', 1000), () => postgresLag(schema.url), work));
      } finally {
        await schema.drop();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(['| store | paced | ack p99 | lag p50 | lag p99 | lag max | saturating run | lag back to 0 after it |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n') + '\n');
  log(`load average at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
