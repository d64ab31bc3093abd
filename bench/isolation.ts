import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { alertDigest, holdAlertWindow, openTransferFailures, slowWebhook, type SlowWebhook } from './isolation-alerts';
import { eventsExports, exportOrders, operatorCookie, summaryRange } from './isolation-exports';
import { importList, postListedDay } from './isolation-import';
import { orderPages, postHeavyPayments, type HeavyOrder } from './isolation-order-page';
import { consolePages, ledgerRebuild, partialCancels, postHeavyNotification, signIn, spreadCancels, type ScenarioOutcome } from './isolation-scenarios';
import { topUpOrders } from './isolation-seed';
import { TABLE_HEADER, tableRow, type ProbeRun } from './isolation-table';
import { loadSource, NotificationPool, paced, type LoadSource } from './load';
import { loopDelayText, scrapeLoopDelay } from './loop-delay';
import { cpuPressureMark, cpuPressureShare } from './cpu-pressure';
import { createBenchSchema } from './postgres-schema';
import { freePort, REPO_ROOT, startReceiver, type RunningProcess } from './processes';
import { clonePostgres, cloneSqlite, sendTemplateOrder, waitForTemplatePostgres, waitForTemplateSqlite } from './seed-ledger';

/**
 * `npm run bench:isolation`: whether the ack's path is the ack's alone. A paced probe of
 * notifications as the bench's load sends them (ISO_RATE, 200/s, for ISO_S seconds) against the
 * built receiver, alone and then beside each heavy thing the service or an operator can do:
 *   (a) ISO_CANCELS (2,000) partial cancels of 1 won on one order, each sent as soon as the last is acked;
 *   (s) as many notifications over a tenth as many orders, the control of (a);
 *   (b) an operator reloading the console's heaviest pages in a loop (a 40 KB notification's event
 *       page, the orders page, the audit page);
 *   (c) `noti-receiver ledger rebuild` run by the CLI on the store of ISO_ORDERS (100,000) orders;
 *   (d) the Orders list downloaded whole as .xlsx, ISO_EXPORT_ROWS orders (1,000,000 on SQLite,
 *       200,000 on PostgreSQL; the rows beyond the cloned orders seeded before it);
 *   (e) the daily money from 0000-01-01 to 9999-12-31 from the internal API and as the console's CSV, repeated;
 *   (f) the Events list of ISO_PAYMENTS (200) notifications of ISO_FIELD_KB (62) KB of field text each, as .xlsx, repeated;
 *   (g) the console page of the order those notifications pay, reloaded;
 *   (h) the alert loop sending one digest of ISO_DISCREPANCIES (250) discrepancies to a webhook that
 *       answers after ISO_WEBHOOK_DELAY_MS (5,000);
 *   (i) the gateway's transaction list of yesterday, ISO_LIST_ORDERS (20,000) orders the bench
 *       sent before, posted to the internal API as a CP949 CSV, and the ledger's matching of it;
 *       its probes (alone and during) run ISO_LIST_S seconds (ISO_S unless given).
 * Each after a probe alone of its own. On SQLite, and on PostgreSQL (a fresh schema) when
 * BENCH_POSTGRES_URL or TEST_POSTGRES_URL is set. Prints, per scenario, the probe's ack p50/p99/max
 * alone and during, the ingest loop's delay p99 from /metrics over each run, the load average and the
 * probe's rate beside them, and the goals: p99 at most 1.5× the probe alone and under 250 ms, none
 * refused, loop delay p99 under 10 ms. BENCH_BASELINE_DIST names another build's dist/ (a worktree of
 * main) to measure in the same run. ISO_STORES picks `sqlite`, `postgres` or both (the default);
 * ISO_SCENARIOS a subset of `a,s,b,c,d,e,f,g,h,i` (the default: all, in that order).
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RATE = env('ISO_RATE', 200);
const SECONDS = env('ISO_S', 15);
const ORDERS = env('ISO_ORDERS', 100_000);
const CANCELS = env('ISO_CANCELS', 2_000);
const EXPORT_ROWS = { SQLite: env('ISO_EXPORT_ROWS', 1_000_000), PostgreSQL: env('ISO_EXPORT_ROWS', 200_000) };
const PAYMENTS = env('ISO_PAYMENTS', 200);
const FIELD_KB = env('ISO_FIELD_KB', 62);
const DISCREPANCIES = env('ISO_DISCREPANCIES', 250);
const WEBHOOK_DELAY_MS = env('ISO_WEBHOOK_DELAY_MS', 5_000);
const LIST_ORDERS = env('ISO_LIST_ORDERS', 20_000);
const LIST_SECONDS = env('ISO_LIST_S', SECONDS);
const STORES = (process.env.ISO_STORES ?? 'sqlite,postgres').split(',');
const SCENARIOS = (process.env.ISO_SCENARIOS ?? 'a,s,b,c,d,e,f,g,h,i').split(',');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
const TOKEN = 'bench-isolation-admin-token-0123456789';
const log = (line: string) => process.stderr.write(`[isolation] ${line}\n`);

interface Store {
  name: 'SQLite' | 'PostgreSQL';
  databaseUrl: string;
  /** Gives the (stopped) store its template order's copies. */
  seed(): Promise<{ orders: number; seconds: number }>;
  waitForTemplate(): Promise<void>;
}

async function measure(store: Store, label: string, dist: string, work: string): Promise<string[]> {
  const apiToken = randomBytes(24).toString('hex');
  // The same three ports across the scenarios' restarts: the operator's session and the probe's URL stay valid.
  const [port, adminPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const settings = {
    PORT: String(port), HOST: '127.0.0.1', ADMIN_PORT: String(adminPort), EXTRA_ALLOWED_IPS: '127.0.0.1',
    API_PORT: String(apiPort), API_HOST: '127.0.0.1', API_TOKEN: apiToken,
    DATABASE_URL: store.databaseUrl, QUEUE_URL: `file:${join(work, 'queue.ndjson')}`, LOG_LEVEL: 'warn', ADMIN_TOKEN: TOKEN,
  };
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const url = `http://127.0.0.1:${port}/notifications`;
  let receiver: RunningProcess = await startReceiver(settings, adminUrl, dist);
  await sendTemplateOrder(url);
  await store.waitForTemplate();
  await receiver.stop();
  const seeded = await store.seed();
  log(`${store.name}, ${label}: seeded ${seeded.orders} orders in ${seeded.seconds.toFixed(1)} s`);
  receiver = await startReceiver(settings, adminUrl, dist);
  /** A scenario that needs the store changed while no receiver holds it, or other settings: stop, change, start. */
  const restart = async (whileStopped: () => Promise<void>, more: Record<string, string> = {}) => {
    await receiver.stop();
    await whileStopped();
    receiver = await startReceiver({ ...settings, ...more }, adminUrl, dist);
  };
  const pool = new NotificationPool();
  const source: LoadSource = loadSource(pool, (size) => pool.growTo(size));
  /** The probe: the bench's paced load (fresh notifications, one in five a redelivery) at RATE, with the loop's delay over it. */
  const probe = async (seconds = SECONDS): Promise<ProbeRun> => {
    source.reserve(RATE * seconds);
    const before = await scrapeLoopDelay(adminUrl);
    const pressure = cpuPressureMark();
    const result = await paced(url, source, { rate: RATE, seconds, connections: 32 });
    const cpuWaited = cpuPressureShare(pressure, cpuPressureMark());
    return { probe: result, loopDelay: loopDelayText(before, await scrapeLoopDelay(adminUrl)), load: loadavg()[0]!, cpuWaited };
  };
  const rows: string[] = [];
  /** The probe alone, then again beside `scenario` (which gets the second probe's end); the loop's delay over the whole scenario. */
  const beside = async (name: string, scenario: (probeEnd: Promise<unknown>) => Promise<ScenarioOutcome>, seconds = SECONDS) => {
    const alone = await probe(seconds);
    log(`${store.name}, ${label}: alone p99 ${alone.probe.latencyP99Ms.toFixed(1)} ms, loop delay p99 ${alone.loopDelay.text}, load average ${alone.load.toFixed(2)}`);
    let probeEnd!: () => void;
    const ended = new Promise<void>((resolve) => (probeEnd = resolve));
    const before = await scrapeLoopDelay(adminUrl);
    const running = scenario(ended);
    const during = await probe(seconds);
    probeEnd();
    const outcome = await running;
    during.loopDelay = loopDelayText(before, await scrapeLoopDelay(adminUrl));
    // Logged whole as well: a run cut short still leaves the scenarios it finished.
    log(`${store.name}, ${label}: ${name}: p99 ${during.probe.latencyP99Ms.toFixed(1)} ms, max ${during.probe.latencyMaxMs.toFixed(1)} ms, ${alone.probe.bad + during.probe.bad} refused, loop delay p99 ${during.loopDelay.text}; ${outcome.note}`);
    rows.push(tableRow({ store: store.name, build: label, scenario: name, alone, during, failed: outcome.bad, note: outcome.note }));
  };
  let operator: Promise<string> | null = null;
  const operatorSession = () => (operator ??= operatorCookie(dist, store.databaseUrl, adminUrl));
  let heavy: Promise<HeavyOrder> | null = null;
  const heavyOrder = () => (heavy ??= postHeavyPayments(url, store.databaseUrl, PAYMENTS, FIELD_KB));
  let webhook: SlowWebhook | null = null;
  try {
    if (SCENARIOS.includes('a')) await beside(`(a) ${CANCELS} partial cancels of one order`, () => partialCancels(url, store.databaseUrl, CANCELS));
    if (SCENARIOS.includes('s')) await beside(`(s) as many notifications over ${Math.floor(CANCELS / 10)} orders`, () => spreadCancels(url, store.databaseUrl, CANCELS));
    if (SCENARIOS.includes('b')) {
      const heavyEvent = await postHeavyNotification(url, store.databaseUrl);
      const cookie = await signIn(adminUrl, TOKEN);
      await beside('(b) console pages in a loop', (ended) => consolePages(adminUrl, cookie, heavyEvent, ended));
    }
    if (SCENARIOS.includes('c')) await beside(`(c) ledger rebuild, ${seeded.orders} orders`, () => ledgerRebuild(dist, store.databaseUrl));
    if (SCENARIOS.includes('d')) {
      // After (c): the rows it adds are ledger order rows alone, which a rebuild would rewrite.
      const rows = EXPORT_ROWS[store.name];
      await restart(async () => {
        const topUp = await topUpOrders(store.databaseUrl, rows);
        log(`${store.name}, ${label}: ${topUp.added} more orders for (d) in ${topUp.seconds.toFixed(1)} s`);
      });
      const cookie = await operatorSession();
      await beside(`(d) orders.xlsx of ${rows.toLocaleString('en-US')} orders`, () => exportOrders(adminUrl, cookie, store.databaseUrl, rows));
    }
    if (SCENARIOS.includes('e')) {
      const cookie = await operatorSession();
      await beside('(e) the summary of 0000-01-01 to 9999-12-31, API and CSV, repeated', (ended) => summaryRange(apiUrl, apiToken, adminUrl, cookie, ended));
    }
    if (SCENARIOS.includes('f')) {
      const [cookie, order] = [await operatorSession(), await heavyOrder()];
      await beside(`(f) events.xlsx of ${PAYMENTS} notifications of ${FIELD_KB} KB, repeated`, (ended) => eventsExports(adminUrl, cookie, store.databaseUrl, order.shopOrderNo, ended));
    }
    if (SCENARIOS.includes('g')) {
      const [cookie, order] = [await operatorSession(), await heavyOrder()];
      await beside(`(g) the page of an order of ${PAYMENTS} such payments, reloaded`, (ended) => orderPages(adminUrl, cookie, order, ended));
    }
    if (SCENARIOS.includes('h')) {
      const hook = (webhook = await slowWebhook(WEBHOOK_DELAY_MS));
      const from = await openTransferFailures(url, store.databaseUrl, DISCREPANCIES);
      await restart(() => holdAlertWindow(store.databaseUrl, from), { ALERT_WEBHOOK_URL: hook.url, ALERT_LANGUAGE: 'en' });
      await beside(`(h) a digest of ${DISCREPANCIES} discrepancies to a webhook answering after ${(WEBHOOK_DELAY_MS / 1000).toFixed(0)} s`, () => alertDigest(store.databaseUrl, hook, DISCREPANCIES));
    }
    if (SCENARIOS.includes('i')) {
      const list = await postListedDay(url, store.databaseUrl, LIST_ORDERS);
      log(`${store.name}, ${label}: ${list.orders} orders of ${list.day} sent and projected for (i) in ${list.seconds.toFixed(1)} s`);
      await beside(`(i) the gateway's list of ${LIST_ORDERS.toLocaleString('en-US')} orders imported and matched`, () => importList(apiUrl, apiToken, store.databaseUrl, list), LIST_SECONDS);
    }
  } finally {
    await receiver.stop();
    await webhook?.close();
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
  console.log([...TABLE_HEADER, ...rows].join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
