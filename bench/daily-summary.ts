import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { bookingsOf, statusBookingOf } from '../src/ledger/summary/order-bookings';
import type { OrderRecord } from '../src/ledger/fold/order-record';
import { createBenchSchema } from './postgres-schema';

/**
 * `npm run bench:summary`: the day's money over SUMMARY_ORDERS orders (default 1,000,000) spread over
 * 2026, on SQLite and PostgreSQL (BENCH_POSTGRES_URL or TEST_POSTGRES_URL). The stores are seeded
 * directly, not through the projector (which would take hours at this size): each order's record is
 * made here, and its rows are exactly what the projector's hook writes for it, from the same pure
 * functions (`bookingsOf`, `statusBookingOf` as for an order first seen): the days it is listed on,
 * the daily totals summed from its bookings and status, and its ledger_orders row with the record
 * and the day its status counts from. Then the month
 * view's read (a month, every mall) and the day page's (a day's figures and its first 200 orders)
 * are timed through the store's own reads, ROUNDS times each; the median and the slowest are printed.
 */
const ORDERS = Number(process.env.SUMMARY_ORDERS ?? 1_000_000);
const ROUNDS = Number(process.env.SUMMARY_ROUNDS ?? 7);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
const MALLS = ['T0001234', 'T0005678', 'T0009012'];
const YEAR_START = Date.parse('2026-01-01T00:00:00+09:00');
// The built service's store (dist/), as the other benches load it: its migrations sit beside it.
const DIST = join(__dirname, '..', '..', 'dist');
const { openDriver } = require(join(DIST, 'store', 'open-store.js')) as typeof import('../src/store/open-store');
const { typedDriver } = require(join(DIST, 'store', 'driver.js')) as typeof import('../src/store/driver');
const log = (line: string) => process.stderr.write(`[summary] ${line}\n`);

/** A deterministic order: a card payment, a fifth cancelled in part up to 3 days later, a twentieth a virtual account (some cancelled), one in a hundred a failed refund. */
function recordOf(n: number): OrderRecord {
  const at = new Date(YEAR_START + ((n * 7919) % 31_536_000) * 1000).toISOString();
  const later = (seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();
  const amount = 1000 * (1 + (n % 97));
  const usd = n % 10 === 0;
  const vaccount = n % 20 === 1;
  const cancelled = n % 5 === 2 ? Math.floor(amount / 2) : 0;
  const record: OrderRecord = {
    mallId: MALLS[n % MALLS.length]!, shopOrderNo: `ORD-${n}`, status: cancelled > 0 ? 'partially_cancelled' : 'paid',
    expected: usd ? { amount, currency: 'USD', method: 'card', source: 'expectation', expiresAt: null } : null,
    approved: vaccount ? 0 : amount, cancelled, remaining: amount - cancelled, deposited: vaccount ? amount : 0,
    payments: vaccount ? [] : [{ pgCno: `PG${n}`, amount, cancelled: false, eventId: `evt_${n}`, at }],
    cancels: cancelled > 0 ? [{ cancelPgCno: `CX${n}`, pgCno: `PG${n}`, amount: cancelled, remainingAfter: amount - cancelled, eventId: `evt_c${n}`, at: later((n % 4) * 86_400) }] : [],
    deposits: vaccount ? [{ pgCno: `PG${n}`, amount, cancelled: n % 40 === 21, ...(n % 40 === 21 && { cancelledAt: later(86_400) }), eventId: `evt_${n}`, at }] : [],
    ...(n % 100 === 3 && { refundsFailed: [{ pgCno: `PG${n}`, amount: 1000, eventId: `evt_f${n}`, at: later(3600) }] }),
    escrow: null, cancellationsRequested: [], events: [`evt_${n}`], discrepancies: [], updatedAt: later(5),
  };
  return record;
}

interface Rows {
  orders: unknown[][];
  days: unknown[][];
  daily: Map<string, unknown[]>;
}

function rowsOf(from: number, to: number, daily: Map<string, unknown[]>): Rows {
  const rows: Rows = { orders: [], days: [], daily };
  const add = (key: unknown[], count: number, amount: number) => {
    const id = key.join('\u0000');
    const row = daily.get(id) ?? [...key, 0, 0];
    row[5] = (row[5] as number) + count;
    row[6] = (row[6] as number) + amount;
    daily.set(id, row);
  };
  for (let n = from; n < to; n++) {
    const record = recordOf(n);
    const status = statusBookingOf(record, null);
    rows.orders.push([n + 1, record.mallId, record.shopOrderNo, record.status, JSON.stringify(record), record.updatedAt, status.day]);
    const days = new Set<string>();
    for (const b of bookingsOf(record)) {
      days.add(b.day);
      add([b.day, record.mallId, b.currency, b.kind, b.method], b.count, b.amount);
    }
    for (const day of days) rows.days.push([day, record.mallId, record.shopOrderNo]);
    add([status.day, record.mallId, status.currency, 'status', status.status], 1, 0);
  }
  return rows;
}

const BATCH = 20_000;

async function seedSqlite(file: string): Promise<void> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const order = db.prepare('INSERT INTO ledger_orders (order_id, mall_id, shop_order_no, status, record_json, updated_at, summary_day) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const listed = db.prepare('INSERT INTO summary_order_days VALUES (?, ?, ?)');
  const daily = new Map<string, unknown[]>();
  for (let from = 0; from < ORDERS; from += BATCH) {
    const rows = rowsOf(from, Math.min(ORDERS, from + BATCH), daily);
    db.transaction(() => {
      for (const r of rows.orders) order.run(...r);
      for (const r of rows.days) listed.run(...r);
    })();
  }
  const total = db.prepare('INSERT INTO summary_daily VALUES (?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => { for (const r of daily.values()) total.run(...r); })();
  db.exec('ANALYZE');
  db.close();
}

async function seedPostgres(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const insert = async (sql: string, rows: unknown[][], columns: number) => {
    if (rows.length === 0) return;
    const arrays = Array.from({ length: columns }, (_, c) => rows.map((row) => row[c]));
    await client.query(sql, arrays);
  };
  const daily = new Map<string, unknown[]>();
  for (let from = 0; from < ORDERS; from += BATCH) {
    const rows = rowsOf(from, Math.min(ORDERS, from + BATCH), daily);
    await insert(`INSERT INTO ledger_orders (order_id, mall_id, shop_order_no, status, record_json, updated_at, summary_day) OVERRIDING SYSTEM VALUE
      SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`, rows.orders, 7);
    await insert('INSERT INTO summary_order_days SELECT * FROM unnest($1::text[], $2::text[], $3::text[])', rows.days, 3);
  }
  await insert('INSERT INTO summary_daily SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])', [...daily.values()], 7);
  // Only this schema's tables: a bare VACUUM would walk every schema of the shared database.
  await client.query('VACUUM ANALYZE ledger_orders, summary_order_days, summary_daily');
  await client.end();
}

async function time(work: () => Promise<unknown>): Promise<{ median: number; slowest: number }> {
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint();
    await work();
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)]!, slowest: ms[ms.length - 1]! };
}

async function measure(name: string, url: string, seed: () => Promise<void>): Promise<string> {
  await (await openDriver(url)).close();
  const started = Date.now();
  await seed();
  log(`${name}: seeded ${ORDERS} orders in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const driver = await openDriver(url);
  const { read } = typedDriver(driver);
  try {
    const month = await time(() => read('dailySummary', { from: '2026-06-01', to: '2026-06-30', mallId: null }, 'KRW'));
    const days = await read('dailySummary', { from: '2026-06-15', to: '2026-06-15', mallId: null }, 'KRW');
    const day = await time(() => Promise.all([read('dailySummary', { from: '2026-06-15', to: '2026-06-15', mallId: null }, 'KRW'), read('dayOrders', '2026-06-15', null, 200)]));
    const december = await time(() => read('dailySummary', { from: '2026-12-01', to: '2026-12-31', mallId: 'T0001234' }, 'KRW'));
    log(`${name}: ${days.length} mall×currency rows for 2026-06-15, e.g. ${JSON.stringify(days[0]?.payments)}`);
    return `| ${name} | ${ORDERS.toLocaleString('en-US')} | ${month.median.toFixed(1)} ms (max ${month.slowest.toFixed(1)}) | ${december.median.toFixed(1)} ms (max ${december.slowest.toFixed(1)}) | ${day.median.toFixed(1)} ms (max ${day.slowest.toFixed(1)}) |`;
  } finally {
    await driver.close();
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'noti-summary-bench-'));
  const lines = ['| store | orders | June, every mall | December, one mall (status sums over the 11 months before) | one day + its first 200 orders |', '|---|---|---|---|---|'];
  try {
    const file = join(work, 'receiver.db');
    lines.push(await measure('SQLite', `sqlite:${file}`, () => seedSqlite(file)));
    if (POSTGRES_URL) {
      const schema = await createBenchSchema(POSTGRES_URL);
      try {
        lines.push(await measure('PostgreSQL', schema.url, () => seedPostgres(schema.url)));
      } finally {
        await schema.drop();
      }
    } else log('PostgreSQL skipped: set BENCH_POSTGRES_URL or TEST_POSTGRES_URL');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
