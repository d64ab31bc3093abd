import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { planNotifications } from '../src/simulator/scenario';
import { loadSource, paced, type PacedResult } from './load';
import { createBenchSchema } from './postgres-schema';
import { startReceiver, type RunningProcess } from './processes';
import { clonePostgres, cloneSqlite, sendTemplateOrder, waitForTemplatePostgres, waitForTemplateSqlite } from './seed-ledger';

/**
 * `npm run bench:export`: what a download of the Orders list costs the receiver (issue 38). The
 * store is seeded with EXPORT_ORDERS (1,000,000) approved orders (bench/seed-ledger.ts); the built
 * receiver then serves the list as .xlsx and as CSV through its console while a paced probe sends
 * fresh approvals at EXPORT_PROBE_RATE (200/s, one in five a redelivery, as the gateway's) for
 * EXPORT_PROBE_S (20 s) from the export's start. Reported per format: rows/s, the file's size,
 * the receiver's peak RSS during the export against before it, and the probe's ack p99 during
 * the export against the same probe without one, in the same run. EXPORT_STORES picks the stores
 * (`sqlite`, or `sqlite,postgres` with BENCH_POSTGRES_URL or TEST_POSTGRES_URL).
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ORDERS = env('EXPORT_ORDERS', 1_000_000);
const PROBE_RATE = env('EXPORT_PROBE_RATE', 200);
const PROBE_S = env('EXPORT_PROBE_S', 20);
const STORES = (process.env.EXPORT_STORES ?? 'sqlite').split(',');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
const TOKEN = 'bench-export-admin-token-0123456789';
const log = (line: string) => process.stderr.write(`[export] ${line}\n`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Receiver {
  process: RunningProcess;
  port: number;
  adminUrl: string;
}

async function receiverOn(databaseUrl: string, queueFile: string): Promise<Receiver> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const process = await startReceiver({
    PORT: String(port), HOST: '127.0.0.1', ADMIN_PORT: String(adminPort), EXTRA_ALLOWED_IPS: '127.0.0.1',
    DATABASE_URL: databaseUrl, QUEUE_URL: `file:${queueFile}`, LOG_LEVEL: 'warn', ADMIN_TOKEN: TOKEN,
  }, adminUrl);
  return { process, port, adminUrl };
}

/** The bootstrap admin's session cookie, signed in as a browser would. */
async function signIn(adminUrl: string): Promise<string> {
  const response = await fetch(`${adminUrl}/console/sign-in`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams({ token: TOKEN }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: adminUrl },
  });
  const cookie = response.headers.get('set-cookie');
  if (response.status !== 303 || !cookie) throw new Error(`sign-in answered ${response.status}`);
  return cookie.split(';')[0]!;
}

/** Downloads the list, reading it as a browser would (as fast as it comes), and counts its bytes. */
async function download(adminUrl: string, cookie: string, file: string): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(`${adminUrl}/console/exports/${file}`, { headers: { cookie } });
  if (!response.ok || !response.body) throw new Error(`the export answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).length;
  return { seconds: (performance.now() - started) / 1000, bytes };
}

function probe(receiver: Receiver, count: number): Promise<PacedResult> {
  const source = loadSource(planNotifications(['10'], count));
  return paced(`http://127.0.0.1:${receiver.port}/notifications`, source, { rate: PROBE_RATE, seconds: PROBE_S, connections: 16 });
}

async function measure(name: string, databaseUrl: string, location: string, work: string): Promise<string[]> {
  const seeding = await receiverOn(databaseUrl, join(work, `seed-${name}.ndjson`));
  try {
    await sendTemplateOrder(`http://127.0.0.1:${seeding.port}/notifications`);
    await (name === 'SQLite' ? waitForTemplateSqlite(location) : waitForTemplatePostgres(location));
  } finally {
    await seeding.process.stop();
  }
  log(`${name}: cloning ${ORDERS} orders`);
  const seeded = name === 'SQLite' ? cloneSqlite(location, ORDERS) : await clonePostgres(location, ORDERS);
  log(`${name}: ${seeded.orders} orders in ${seeded.seconds.toFixed(0)} s`);
  const receiver = await receiverOn(databaseUrl, join(work, `${name}.ndjson`));
  const rows: string[] = [];
  try {
    const cookie = await signIn(receiver.adminUrl);
    const fresh = Math.ceil(PROBE_RATE * PROBE_S * 1.1);
    log(`${name}: probe without an export`);
    const alone = await probe(receiver, fresh);
    for (const format of ['xlsx', 'csv']) {
      receiver.process.resetPeakRss();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = receiver.process.peakRssMb();
      receiver.process.resetPeakRss();
      log(`${name}: ${format} export with the probe, load average ${loadavg()[0]!.toFixed(2)}`);
      const [exported, during] = await Promise.all([download(receiver.adminUrl, cookie, `orders.${format}`), probe(receiver, fresh)]);
      const peak = receiver.process.peakRssMb();
      const overlap = Math.min(1, exported.seconds / PROBE_S);
      rows.push(`| ${name} | ${format} | ${seeded.orders.toLocaleString('en-US')} | ${exported.seconds.toFixed(1)} s | ${Math.round(seeded.orders / exported.seconds).toLocaleString('en-US')} | ${(exported.bytes / 1e6).toFixed(0)} MB | ${before.toFixed(0)} → ${peak.toFixed(0)} MB | ${alone.latencyP99Ms.toFixed(1)} / ${during.latencyP99Ms.toFixed(1)} ms (${(during.latencyP99Ms / alone.latencyP99Ms).toFixed(2)}) | ${during.requestsPerSecond.toFixed(0)}/s, ${during.bad} bad, ${(overlap * 100).toFixed(0)} % of it during the export |`);
    }
  } finally {
    await receiver.process.stop();
  }
  return rows;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'noti-export-'));
  const rows: string[] = [];
  try {
    if (STORES.includes('sqlite')) {
      const file = join(work, 'receiver.db');
      rows.push(...await measure('SQLite', `sqlite:${file}`, file, work));
    }
    if (POSTGRES_URL && STORES.includes('postgres')) {
      const schema = await createBenchSchema(POSTGRES_URL);
      try {
        rows.push(...await measure('PostgreSQL', schema.url, schema.url, work));
      } finally {
        await schema.drop();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write([
    '| store | format | rows | time | rows/s | file | receiver RSS before → peak | probe ack p99 without / with export (ratio) | probe sent |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n') + '\n');
  log(`load average at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
