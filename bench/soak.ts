import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { postgresLag, sampleLag, sqliteLag, type LagReader } from './lag-reader';
import { loadSource, NotificationPool, paced, saturate, type LoadSource } from './load';
import { createBenchSchema } from './postgres-schema';
import { startReceiver, type RunningProcess } from './processes';
import { clonePostgres, cloneSqlite, sendTemplateOrder, waitForTemplatePostgres, waitForTemplateSqlite, type SeedResult } from './seed-ledger';

/**
 * `npm run bench:soak`: whether anything grows with the data (issue 29). The built receiver on each
 * store (SOAK_STORES, `sqlite,postgres`) takes a paced load of fresh notifications (new orders, one
 * in five a redelivery) at SOAK_RATE (1000/s) for SOAK_MINUTES (10), one row per SOAK_WINDOW_S
 * (60 s): what was sent against what was asked, the acks' p50/p99/max, the projector's lag read
 * from the database every SOAK_LAG_MS (50 ms), and what the tables hold (on PostgreSQL the dead
 * and live tuples the statistics collector counts, and when autovacuum last ran). At the end, the
 * last window over the first for the acks' p99 and the lag's p99, and whether either grew by more than 20 %.
 *
 * SOAK_SEED_ORDERS (e.g. 1000000) first gives the store that many approved orders
 * (bench/seed-ledger.ts). With SOAK_MODE=compare (and SOAK_SEED_ORDERS) it instead compares an empty
 * store with a seeded one, both running, in SOAK_SEED_ROUNDS alternated rounds (order reversed each
 * round) of SOAK_SEED_S seconds paced at SOAK_RATE and SOAK_SEED_SATURATE_S seconds closed-loop at
 * SOAK_CONNECTIONS (32) connections.
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RATE = env('SOAK_RATE', 1000);
const MINUTES = env('SOAK_MINUTES', 10);
const WINDOW_S = env('SOAK_WINDOW_S', 60);
const LAG_MS = env('SOAK_LAG_MS', 50);
const SEED_ORDERS = env('SOAK_SEED_ORDERS', 0);
/** `compare`: the empty store against the seeded one in alternated rounds, instead of the soak. */
const COMPARE = process.env.SOAK_MODE === 'compare';
const SEED_ROUNDS = env('SOAK_SEED_ROUNDS', 3);
const SEED_S = env('SOAK_SEED_S', 30);
const SEED_SATURATE_S = env('SOAK_SEED_SATURATE_S', 5);
/** The pacer's connections: it can send at most CONNECTIONS / ack time, 640/s at 50 ms acks with 32. */
const CONNECTIONS = env('SOAK_CONNECTIONS', 32);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
const STORES = (process.env.SOAK_STORES ?? 'sqlite,postgres').split(',');
const log = (line: string) => process.stderr.write(`[soak] ${line}\n`);
/**
 * Ports the system has free right now: other benches on the machine take fixed ones, and a
 * receiver that cannot listen must not leave the bench measuring whichever process answers there.
 */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built receiver on its own free ports. */
async function receiverOn(databaseUrl: string, queueFile: string): Promise<{ port: number; receiver: RunningProcess }> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const receiver = await startReceiver(receiverEnv(port, adminPort, databaseUrl, queueFile), `http://127.0.0.1:${adminPort}`);
  return { port, receiver };
}

const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);

/** The tables the relay and the projector scan, and the projector's one-row position. */
const WATCHED = ['outbox', 'inbox', 'ledger_orders', 'ledger_facts', 'ledger_projector'];

interface StoreProbe {
  /** One table cell per watched figure, read between windows. */
  read(): Promise<string[]>;
  headers: string[];
  lag(): Promise<LagReader>;
  close(): Promise<void>;
}

/** The relay's own scan (src/store/procedures/next-pending.ts), its batch of 500. */
const RELAY_SCAN = `SELECT o.seq, o.event_id, i.event_json FROM outbox o JOIN inbox i ON i.seq = o.inbox_seq
  WHERE o.status = 'pending' ORDER BY o.seq LIMIT 500`;

const POSTGRES_HEADERS = ['outbox rows (pending)', ...WATCHED.map((t) => `${t} dead/live`), 'outbox MB', 'outbox_pending kB', 'relay scan pages', 'outbox last autovacuum'];

const OUTBOX_SQL = `SELECT COUNT(*) AS total, COUNT(*) FILTER (WHERE status = 'pending') AS pending FROM outbox`;

function sqliteProbe(file: string): StoreProbe {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const outbox = db.prepare(OUTBOX_SQL);
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return {
    headers: ['outbox rows (pending)', 'file + WAL MB'],
    read: async () => {
      const row = outbox.get() as { total: number; pending: number };
      return [`${row.total} (${row.pending})`, ((size(file) + size(`${file}-wal`)) / 1024 / 1024).toFixed(0)];
    },
    lag: () => sqliteLag(file),
    close: async () => void db.close(),
  };
}

async function postgresProbe(url: string): Promise<StoreProbe> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    headers: POSTGRES_HEADERS,
    read: async () => {
      const outbox = (await client.query<{ total: string; pending: string }>(OUTBOX_SQL)).rows[0]!;
      const stats = new Map(
        (await client.query<{ relname: string; n_dead_tup: string; n_live_tup: string; last_autovacuum: Date | null }>(
          `SELECT relname, n_dead_tup, n_live_tup, last_autovacuum FROM pg_stat_user_tables
           WHERE schemaname = current_schema() AND relname = ANY($1)`, [WATCHED],
        )).rows.map((row) => [row.relname, row]),
      );
      const size = (await client.query<{ mb: string; pending_kb: string }>(
        `SELECT pg_total_relation_size('outbox') / 1048576.0 AS mb, pg_relation_size('outbox_pending') / 1024 AS pending_kb`,
      )).rows[0]!;
      // What the relay's scan reads (pages, cached or not), counted by the server: no clock involved.
      const plan = (await client.query<{ 'QUERY PLAN': Array<{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }> }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${RELAY_SCAN}`,
      )).rows[0]!['QUERY PLAN'][0]!.Plan;
      const last = stats.get('outbox')?.last_autovacuum;
      return [
        `${outbox.total} (${outbox.pending})`,
        ...WATCHED.map((t) => (stats.has(t) ? `${stats.get(t)!.n_dead_tup}/${stats.get(t)!.n_live_tup}` : '–')),
        Number(size.mb).toFixed(0),
        size.pending_kb,
        String(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']),
        last ? last.toISOString().slice(11, 19) : 'never',
      ];
    },
    lag: () => postgresLag(url),
    close: () => client.end(),
  };
}

async function autovacuumSetting(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name IN ('autovacuum', 'autovacuum_naptime', 'autovacuum_vacuum_scale_factor', 'autovacuum_vacuum_cost_delay')`,
    );
    const options = (await client.query<{ reloptions: string[] | null }>(`SELECT reloptions FROM pg_class WHERE oid = to_regclass('outbox')`)).rows[0]?.reloptions;
    return `${rows.map((r) => `${r.name}=${r.setting}`).join(', ')}; outbox reloptions ${options ? options.join(', ') : 'none'}`;
  } finally {
    await client.end();
  }
}

interface Window {
  sent: number;
  sentPerSecond: number;
  ackP50: number;
  ackP99: number;
  ackMax: number;
  sendLagP99: number;
  lagP50: number;
  lagP99: number;
  lagMax: number;
  bad: number;
}

/** One paced window with the lag sampled throughout. */
async function pacedWindow(url: string, source: LoadSource, reader: LagReader, seconds: number): Promise<Window> {
  source.reserve(RATE * seconds);
  const sampler = sampleLag(reader, LAG_MS);
  const load = await paced(url, source, { rate: RATE, seconds, connections: CONNECTIONS }).finally(() => sampler.stop());
  const lag = await sampler.stop();
  if (load.poolExhausted) throw new Error('the pool of fresh notifications ran out');
  return {
    sent: load.requests, sentPerSecond: load.requestsPerSecond, ackP50: load.latencyP50Ms, ackP99: load.latencyP99Ms, ackMax: load.latencyMaxMs,
    sendLagP99: load.sendLagP99Ms, lagP50: lag.percentile(50), lagP99: lag.percentile(99), lagMax: lag.percentile(100), bad: load.bad,
  };
}

// The question is growth with the data: a last window faster than a first one that still warmed up is not a failure.
const grew = (ratio: number) => (ratio > 1.2 ? 'yes' : 'no');

async function soak(name: string, kind: 'sqlite' | 'postgres', databaseUrl: string, location: string, probe: StoreProbe, work: string, note?: () => Promise<string>): Promise<string> {
  let seeded = '';
  if (SEED_ORDERS > 0) {
    const result = await seed(kind, databaseUrl, location, work);
    seeded = `, on ${result.orders} seeded orders (${result.seconds.toFixed(0)} s to seed)`;
    log(`${name}: seeded ${result.orders} orders (status ${result.status}, ${result.inboxRowsPerOrder} inbox rows and ${result.factsPerOrder} facts each) in ${result.seconds.toFixed(1)} s`);
  }
  const { port, receiver } = await receiverOn(databaseUrl, join(work, `${name}.ndjson`));
  const reader = await probe.lag();
  // Read once the receiver migrated the store, so the outbox's own settings are in it.
  const noted = note ? await note() : '';
  const windows = Math.max(1, Math.round((MINUTES * 60) / WINDOW_S));
  const lines = [
    `### ${name}: ${RATE}/s asked, ${windows} windows of ${WINDOW_S} s${seeded}`,
    '',
    ...(noted ? [noted, ''] : []),
    `| window | sent (asked) | sent/s | send lag p99 ms | ack p50 / p99 / max ms | lag p50 / p99 / max ms | bad | ${probe.headers.join(' | ')} |`,
    `|---|---|---|---|---|---|---|${probe.headers.map(() => '---|').join('')}`,
  ];
  const results: Window[] = [];
  try {
    const pool = new NotificationPool();
    const source = loadSource(pool, (size) => pool.growTo(size));
    const url = `http://127.0.0.1:${port}/notifications`;
    log(`${name}: ${RATE}/s for ${windows} × ${WINDOW_S} s, load average ${loadavg()[0]!.toFixed(2)}`);
    for (let i = 0; i < windows; i += 1) {
      const w = await pacedWindow(url, source, reader, WINDOW_S);
      results.push(w);
      const line = `| ${i + 1} | ${w.sent} (${RATE * WINDOW_S}) | ${w.sentPerSecond.toFixed(0)} | ${ms(w.sendLagP99)} | ${ms(w.ackP50)} / ${ms(w.ackP99)} / ${ms(w.ackMax)} | ${w.lagP50.toFixed(0)} / ${w.lagP99.toFixed(0)} / ${w.lagMax.toFixed(0)} | ${w.bad} | ${(await probe.read()).join(' | ')} |`;
      lines.push(line);
      log(line);
    }
  } finally {
    await reader.close();
    await receiver.stop();
  }
  const first = results[0]!;
  const last = results.at(-1)!;
  const ackRatio = last.ackP99 / first.ackP99;
  // A first window whose lag p99 is one sampling step is a floor, not a figure: the ratio says so.
  const lagRatio = last.lagP99 / Math.max(first.lagP99, 1);
  lines.push(
    '',
    `last ÷ first window: ack p99 ${ms(last.ackP99)} ÷ ${ms(first.ackP99)} = ${ackRatio.toFixed(2)} (grew by more than 20 %: ${grew(ackRatio)}); ` +
      `lag p99 ${last.lagP99.toFixed(0)} ÷ ${first.lagP99.toFixed(0)} ms = ${lagRatio.toFixed(2)} (grew by more than 20 %: ${grew(lagRatio)}); ` +
      `sent ${results.reduce((n, w) => n + w.sent, 0)} of ${RATE * WINDOW_S * windows} asked`,
    '',
  );
  return lines.join('\n');
}

function receiverEnv(port: number, adminPort: number, databaseUrl: string, queueFile: string): Record<string, string> {
  return {
    PORT: String(port), HOST: '127.0.0.1', ADMIN_PORT: String(adminPort), EXTRA_ALLOWED_IPS: '127.0.0.1',
    DATABASE_URL: databaseUrl, QUEUE_URL: `file:${queueFile}`, LOG_LEVEL: 'warn',
  };
}

interface Side {
  label: string;
  port: number;
  receiver: RunningProcess;
  reader: LagReader;
  source: LoadSource;
  paced: Window[];
  saturated: number[];
}

/** A store seeded with SEED_ORDERS orders: the receiver stores and projects the template, stops, the rows are cloned. */
async function seed(kind: 'sqlite' | 'postgres', databaseUrl: string, location: string, work: string): Promise<SeedResult> {
  const { port, receiver } = await receiverOn(databaseUrl, join(work, `seed-${kind}.ndjson`));
  try {
    await sendTemplateOrder(`http://127.0.0.1:${port}/notifications`);
    await (kind === 'sqlite' ? waitForTemplateSqlite(location) : waitForTemplatePostgres(location));
  } finally {
    await receiver.stop();
  }
  return kind === 'sqlite' ? cloneSqlite(location, SEED_ORDERS) : clonePostgres(location, SEED_ORDERS);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2;
};

async function compare(name: string, kind: 'sqlite' | 'postgres', stores: Array<{ url: string; location: string; lag: () => Promise<LagReader> }>, work: string): Promise<string> {
  log(`${name}: seeding ${SEED_ORDERS} orders`);
  const seeded = await seed(kind, stores[1]!.url, stores[1]!.location, work);
  log(`${name}: seeded ${seeded.orders} orders (status ${seeded.status}, ${seeded.inboxRowsPerOrder} inbox rows and ${seeded.factsPerOrder} facts each) in ${seeded.seconds.toFixed(1)} s`);
  const sides: Side[] = [];
  try {
    for (const [i, store] of stores.entries()) {
      const { port, receiver } = await receiverOn(store.url, join(work, `${name}-${i}.ndjson`));
      const pool = new NotificationPool();
      sides.push({ label: i === 0 ? 'empty' : `${SEED_ORDERS} orders`, port, receiver, reader: await store.lag(), source: loadSource(pool, (size) => pool.growTo(size)), paced: [], saturated: [] });
    }
    for (let round = 0; round < SEED_ROUNDS; round += 1) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const url = `http://127.0.0.1:${side.port}/notifications`;
        const w = await pacedWindow(url, side.source, side.reader, SEED_S);
        side.paced.push(w);
        let closed = '';
        if (SEED_SATURATE_S > 0) {
          side.source.reserve(20_000 * SEED_SATURATE_S);
          const load = await saturate([url], side.source, { connections: CONNECTIONS, seconds: SEED_SATURATE_S, warmupSeconds: 1 });
          side.saturated.push(load.requestsPerSecond);
          closed = `, closed loop ${load.requestsPerSecond.toFixed(0)}/s`;
          // Let the projector catch up before the other side is measured.
          const deadline = Date.now() + 120_000;
          while ((await side.reader.read()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        log(`${name} round ${round + 1} ${side.label}: ${w.sentPerSecond.toFixed(0)}/s sent, ack p99 ${ms(w.ackP99)} ms, lag p99 ${w.lagP99.toFixed(0)} ms${closed}`);
      }
    }
  } finally {
    for (const side of sides) {
      await side.reader.close();
      await side.receiver.stop();
    }
  }
  const [empty, full] = sides as [Side, Side];
  const row = (label: string, pick: (w: Window) => number, digits = 1) =>
    `| ${label} | ${median(empty.paced.map(pick)).toFixed(digits)} (${empty.paced.map((w) => pick(w).toFixed(digits)).join(', ')}) | ${median(full.paced.map(pick)).toFixed(digits)} (${full.paced.map((w) => pick(w).toFixed(digits)).join(', ')}) | ${(median(full.paced.map(pick)) / Math.max(median(empty.paced.map(pick)), 1e-9)).toFixed(2)} |`;
  const lines = [
    `### ${name}: empty vs ${SEED_ORDERS} orders (seeded in ${seeded.seconds.toFixed(0)} s), ${SEED_ROUNDS} alternated rounds, paced ${RATE}/s for ${SEED_S} s`,
    '',
    '| figure | empty: median (rounds) | seeded: median (rounds) | seeded ÷ empty |',
    '|---|---|---|---|',
    row('sent/s', (w) => w.sentPerSecond, 0),
    row('ack p99 ms', (w) => w.ackP99),
    row('ack max ms', (w) => w.ackMax),
    row('lag p50 ms', (w) => w.lagP50, 0),
    row('lag p99 ms', (w) => w.lagP99, 0),
  ];
  if (SEED_SATURATE_S > 0) {
    lines.push(`| closed loop req/s (${CONNECTIONS} conn.) | ${median(empty.saturated).toFixed(0)} (${empty.saturated.map((n) => n.toFixed(0)).join(', ')}) | ${median(full.saturated).toFixed(0)} (${full.saturated.map((n) => n.toFixed(0)).join(', ')}) | ${(median(full.saturated) / median(empty.saturated)).toFixed(2)} |`);
  }
  return [...lines, ''].join('\n');
}

async function main(): Promise<void> {
  if (COMPARE && !(SEED_ORDERS > 0)) throw new Error('SOAK_MODE=compare needs SOAK_SEED_ORDERS');
  const work = mkdtempSync(join(tmpdir(), 'noti-soak-'));
  const out: string[] = [];
  try {
    if (STORES.includes('sqlite')) {
      if (COMPARE) {
        const files = ['empty', 'seeded'].map((dir) => (mkdirSync(join(work, dir)), join(work, dir, 'receiver.db')));
        out.push(await compare('SQLite', 'sqlite', files.map((file) => ({ url: `sqlite:${file}`, location: file, lag: () => sqliteLag(file) })), work));
      } else {
        mkdirSync(join(work, 'sqlite'));
        const file = join(work, 'sqlite', 'receiver.db');
        // The probe opens the file the receiver creates: started inside soak, after the receiver is ready.
        let probe: StoreProbe | undefined;
        const lazy: StoreProbe = {
          headers: ['outbox rows (pending)', 'file + WAL MB'],
          read: () => (probe ??= sqliteProbe(file)).read(),
          lag: () => sqliteLag(file),
          close: async () => probe?.close(),
        };
        try {
          out.push(await soak('SQLite', 'sqlite', `sqlite:${file}`, file, lazy, work));
        } finally {
          await lazy.close();
        }
      }
    }
    if (POSTGRES_URL && STORES.includes('postgres')) {
      log(`PostgreSQL: ${await autovacuumSetting(POSTGRES_URL).catch(() => 'settings unreadable')}`);
      if (COMPARE) {
        const schemas = [await createBenchSchema(POSTGRES_URL), await createBenchSchema(POSTGRES_URL)];
        try {
          out.push(await compare('PostgreSQL', 'postgres', schemas.map((schema) => ({ url: schema.url, location: schema.url, lag: () => postgresLag(schema.url) })), work));
        } finally {
          for (const schema of schemas) await schema.drop();
        }
      } else {
        const schema = await createBenchSchema(POSTGRES_URL);
        try {
          // The tables exist once the receiver migrated them: the probe connects lazily too.
          let probe: StoreProbe | undefined;
          const lazy: StoreProbe = {
            headers: POSTGRES_HEADERS,
            read: async () => (probe ??= await postgresProbe(schema.url)).read(),
            lag: () => postgresLag(schema.url),
            close: async () => probe?.close(),
          };
          try {
            // An autovacuum turned off server-wide explains any dead row count: the table says so.
            out.push(await soak('PostgreSQL', 'postgres', schema.url, schema.url, lazy, work, async () => `Autovacuum: ${await autovacuumSetting(schema.url)}`));
            log(`PostgreSQL after the run: ${await autovacuumSetting(schema.url)}`);
          } finally {
            await lazy.close();
          }
        } finally {
          await schema.drop();
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(out.join('\n'));
  log(`load average at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
