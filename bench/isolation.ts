import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSource, NotificationPool, paced, type LoadSource, type PacedResult } from './load';
import { consolePages, ledgerRebuild, partialCancels, postHeavyNotification, signIn, spreadCancels, type ScenarioOutcome } from './isolation-scenarios';
import { createBenchSchema } from './postgres-schema';
import { REPO_ROOT, startReceiver } from './processes';
import { clonePostgres, cloneSqlite, sendTemplateOrder, waitForTemplatePostgres, waitForTemplateSqlite } from './seed-ledger';

/**
 * `npm run bench:isolation` (issue 37): whether the ack's path is the ack's alone. A paced probe of
 * notifications as the bench's load sends them (ISO_RATE, 200/s, for ISO_S seconds) against the
 * built receiver, alone and then beside each of:
 *   (a) ISO_CANCELS (2,000) partial cancels of 1 won on one order, each sent as soon as the last is acked;
 *   (b) an operator reloading the console's heaviest pages in a loop (a 40 KB notification's event
 *       page, the orders page, the audit page);
 *   (c) `noti-receiver ledger rebuild` run by the CLI on the store of ISO_ORDERS (100,000) orders.
 * On SQLite, and on PostgreSQL (a fresh schema) when BENCH_POSTGRES_URL or TEST_POSTGRES_URL is set.
 * Prints the probe's ack p99 alone and during, their ratio, the max and how many answers were not a
 * 2xx `0000` ack (goal: at most 1.5x alone and 250 ms, none refused). BENCH_BASELINE_DIST names
 * another build's dist/ (a worktree of main) to measure in the same run. ISO_STORES picks
 * `sqlite`, `postgres` or both (the default); ISO_SCENARIOS a subset of `a,s,b,c` (default `a,s,b,c`).
 */
const RATE = Number(process.env.ISO_RATE ?? 200);
const SECONDS = Number(process.env.ISO_S ?? 15);
const ORDERS = Number(process.env.ISO_ORDERS ?? 100_000);
const CANCELS = Number(process.env.ISO_CANCELS ?? 2_000);
const STORES = (process.env.ISO_STORES ?? 'sqlite,postgres').split(',');
const SCENARIOS = (process.env.ISO_SCENARIOS ?? 'a,s,b,c').split(',');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
const TOKEN = 'bench-isolation-admin-token-0123456789';
const PORT = 18_380;
const log = (line: string) => process.stderr.write(`[isolation] ${line}\n`);

/** The probe: the bench's paced load (fresh notifications, one in five a redelivery) at RATE. */
async function probe(url: string, source: LoadSource): Promise<PacedResult> {
  source.reserve(RATE * SECONDS);
  return paced(url, source, { rate: RATE, seconds: SECONDS, connections: 32 });
}

interface Store {
  name: string;
  databaseUrl: string;
  /** Gives the (stopped) store its template order's copies. */
  seed(): Promise<{ orders: number; seconds: number }>;
  waitForTemplate(): Promise<void>;
}

async function measure(store: Store, label: string, dist: string, work: string): Promise<string[]> {
  const env = {
    PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PORT: String(PORT + 1), EXTRA_ALLOWED_IPS: '127.0.0.1',
    DATABASE_URL: store.databaseUrl, QUEUE_URL: `file:${join(work, 'queue.ndjson')}`, LOG_LEVEL: 'warn', ADMIN_TOKEN: TOKEN,
  };
  const adminUrl = `http://127.0.0.1:${PORT + 1}`;
  const url = `http://127.0.0.1:${PORT}/notifications`;
  let receiver = await startReceiver(env, adminUrl, dist);
  await sendTemplateOrder(url);
  await store.waitForTemplate();
  await receiver.stop();
  const seeded = await store.seed();
  log(`${store.name}, ${label}: seeded ${seeded.orders} orders in ${seeded.seconds.toFixed(1)} s`);
  receiver = await startReceiver(env, adminUrl, dist);
  const pool = new NotificationPool();
  const source = loadSource(pool, (size) => pool.growTo(size));
  const rows: string[] = [];
  /** The probe alone, then again beside `scenario` (which gets the second probe's end). */
  const beside = async (name: string, scenario: (probeEnd: Promise<unknown>) => Promise<ScenarioOutcome>) => {
    const alone = await probe(url, source);
    log(`${store.name}, ${label}: alone p99 ${alone.latencyP99Ms.toFixed(1)} ms, load average ${loadavg()[0]!.toFixed(2)}`);
    let probeEnd!: () => void;
    const ended = new Promise<void>((resolve) => (probeEnd = resolve));
    const running = scenario(ended);
    const during = await probe(url, source);
    probeEnd();
    const outcome = await running;
    // Logged whole as well: a run cut short still leaves the scenarios it finished.
    log(`${store.name}, ${label}: ${name}: p99 ${during.latencyP99Ms.toFixed(1)} ms, max ${during.latencyMaxMs.toFixed(1)} ms, ${alone.bad + during.bad + outcome.bad} not acked; ${outcome.note}`);
    const ratio = during.latencyP99Ms / alone.latencyP99Ms;
    rows.push(`| ${store.name} | ${label} | ${name} | ${alone.latencyP99Ms.toFixed(1)} ms | ${during.latencyP99Ms.toFixed(1)} ms | ${ratio.toFixed(2)} | ${during.latencyMaxMs.toFixed(1)} ms | ${alone.bad + during.bad + outcome.bad} | ${outcome.note} |`);
  };
  try {
    if (SCENARIOS.includes('a')) await beside(`(a) ${CANCELS} partial cancels of one order`, () => partialCancels(url, store.databaseUrl, CANCELS));
    if (SCENARIOS.includes('s')) await beside(`(s) as many notifications over ${Math.floor(CANCELS / 10)} orders`, () => spreadCancels(url, store.databaseUrl, CANCELS));
    if (SCENARIOS.includes('b')) {
      const heavy = await postHeavyNotification(url, store.databaseUrl);
      const cookie = await signIn(adminUrl, TOKEN);
      await beside('(b) console pages in a loop', (ended) => consolePages(adminUrl, cookie, heavy, ended));
    }
    if (SCENARIOS.includes('c')) await beside(`(c) ledger rebuild, ${seeded.orders} orders`, () => ledgerRebuild(dist, store.databaseUrl));
  } finally {
    await receiver.stop();
  }
  return rows;
}

async function onSqlite(label: string, dist: string): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'isolation-bench-'));
  const file = join(work, 'receiver.db');
  try {
    return await measure({
      name: 'SQLite', databaseUrl: `sqlite:${file}`,
      seed: () => Promise.resolve(cloneSqlite(file, ORDERS)),
      waitForTemplate: () => waitForTemplateSqlite(file),
    }, label, dist, work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function onPostgres(baseUrl: string, label: string, dist: string): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'isolation-bench-'));
  const schema = await createBenchSchema(baseUrl);
  try {
    return await measure({
      name: 'PostgreSQL', databaseUrl: schema.url,
      seed: () => clonePostgres(schema.url, ORDERS),
      waitForTemplate: () => waitForTemplatePostgres(schema.url),
    }, label, dist, work);
  } finally {
    await schema.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const builds: Array<[string, string]> = [];
  if (process.env.BENCH_BASELINE_DIST) builds.push(['baseline', process.env.BENCH_BASELINE_DIST]);
  builds.push(['this build', join(REPO_ROOT, 'dist')]);
  log(`load average at the start ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  const rows: string[] = [];
  for (const [label, dist] of builds) {
    if (STORES.includes('sqlite')) rows.push(...await onSqlite(label, dist));
    if (POSTGRES_URL && STORES.includes('postgres')) rows.push(...await onPostgres(POSTGRES_URL, label, dist));
  }
  log(`load average at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  console.log([
    '| store | build | during | ack p99 alone | ack p99 during | ratio | max during | not a 2xx 0000 ack | the scenario |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
