import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import iconv from 'iconv-lite';
import { Client } from 'pg';
import { bodyHash } from '../src/notifications/dedup-key';
import { kstStamp } from '../src/notifications/kst-date';
import { normalizeNotification } from '../src/notifications/normalize';
import { validateNotification } from '../src/notifications/schema';
import { approvalNotification } from '../src/simulator/notification-builders';
import type { InboxEntry } from '../src/store/store';
import { recordAll } from './ledger-bench-store';

/**
 * What importing and matching the gateway's transaction list costs: a store holding ROWS orders of
 * one KST day (one approval each, projected), and a CP949 CSV of that day as the portal gives it,
 * listing every payment but ten (their notifications are "forged": not_in_gateway_list), with ten
 * of another amount and ten never notified. The import and the ledger's matching run in a child
 * process of their own, so its peak RSS is theirs: the file read on its thread, the rows and facts
 * stored in pages, the projector applying one input per order. Prints seconds and peak RSS.
 * SQLite always; PostgreSQL when BENCH_POSTGRES_URL (a database it may create a schema in) is set.
 */
/** The service as built (`npm run build`): its store opens the SQLite writer's and the reader's threads from dist/. */
const DIST = join(__dirname, '..', '..', 'dist');
const { openStores } = require(join(DIST, 'ledger/projector/open-stores.js')) as typeof import('../src/ledger/projector/open-stores');
const { importGatewayList } = require(join(DIST, 'reconciliation/import/import-list.js')) as typeof import('../src/reconciliation/import/import-list');
const { readListOffLoop } = require(join(DIST, 'reconciliation/import/read-off-loop.js')) as typeof import('../src/reconciliation/import/read-off-loop');

const ROWS = Number(process.env.RECONCILE_ROWS ?? 100_000);
const MALL = 'T0001234';
/** 2026-11-20 in Korea, from 00:00:00: one second apart. */
const DAY_MS = Date.UTC(2026, 10, 19, 15, 0, 0);
const at = (i: number) => new Date(DAY_MS + (i % 86_000) * 1000);
const pgCno = (i: number) => `2611200000${String(i).padStart(10, '0')}`;

function entry(i: number): InboxEntry {
  const body = approvalNotification({ mallId: MALL, shopOrderNo: `ORD-${i}`, pgCno: pgCno(i), amount: String(1000 + (i % 50) * 100), transactionDate: kstStamp(at(i)) });
  const valid = validateNotification(body, { mallIds: [] });
  if (!valid.ok) throw new Error(valid.reasons.join('; '));
  const { event, dedupKey } = normalizeNotification(valid.value, { receivedAt: new Date().toISOString(), sourceIp: '203.233.72.150', environment: 'production' });
  return { dedupKey, event, bodyHash: bodyHash(valid.value.fields), rawBody: Buffer.from(JSON.stringify(body)), contentType: 'application/json; charset=utf-8' };
}

function csv(): Buffer {
  const lines = ['거래일시,PG거래번호,취소거래번호,주문번호,승인번호,결제수단,상태,거래금액,취소금액'];
  for (let i = 10; i < ROWS + 10; i += 1) {
    const wall = new Date(at(i).getTime() + 9 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    const amount = 1000 + (i % 50) * 100 + (i >= 10 && i < 20 ? 1 : 0);
    lines.push(`${wall},${pgCno(i)},,ORD-${i},${30_000_000 + i},신용카드,승인,${amount},0`);
  }
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'cp949');
}

async function seed(url: string): Promise<void> {
  const stores = await openStores(url, {});
  // ROWS - 10 orders notified: the list's last ten are never notified (notification_missing).
  await recordAll((i: number) => stores.store.record(entry(i)), Array.from({ length: ROWS }, (_, i) => i), 64);
  await stores.ledger.caughtUp(600_000);
  await stores.store.close();
  if (url.startsWith('postgres')) await analyze(url);
}

/**
 * A month into service, autovacuum has taken the tables' statistics; a bench server may run
 * without it (this machine's does). Without statistics every plan of the projector's batch is
 * costed as if each order had hundreds of facts, and each run of it is compiled (JIT) first.
 */
async function analyze(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE inbox, outbox, ledger_orders, ledger_facts, ledger_order_items, ledger_fold_positions, ledger_inputs, payment_search, summary_order_days');
  } finally {
    await client.end();
  }
}

async function measure(url: string, file: string): Promise<void> {
  const stores = await openStores(url, {});
  const started = performance.now();
  const outcome = await importGatewayList(
    { reconciliation: stores.reconciliation, ledger: stores.ledger, read: readListOffLoop },
    { bytes: readFileSync(file), fileName: 'list.csv', mallId: MALL, actor: 'bench', at: new Date().toISOString(), matchWaitMs: 1 },
  );
  const imported = performance.now();
  await stores.ledger.caughtUp(1_800_000);
  const matched = performance.now();
  const [day] = await stores.reconciliation.reconciliationDay('2026-11-20', MALL, 0);
  await stores.store.close();
  if (outcome.outcome !== 'imported') throw new Error(JSON.stringify(outcome).slice(0, 400));
  console.log(JSON.stringify({
    store: url.split(':')[0], rows: ROWS, orders: outcome.summary.import.orderCount,
    importSeconds: Number(((imported - started) / 1000).toFixed(1)), matchSeconds: Number(((matched - imported) / 1000).toFixed(1)),
    totalSeconds: Number(((matched - started) / 1000).toFixed(1)), peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    matched: day?.matched, differences: day?.differences.open,
  }));
}

async function main(): Promise<void> {
  const [mode, url, file] = process.argv.slice(2);
  if (mode === 'measure') return measure(url!, file!);
  const dir = mkdtempSync(join(tmpdir(), 'reconcile-bench-'));
  const pg = process.env.BENCH_POSTGRES_URL;
  const schema = `bench_${process.pid}`;
  try {
    const path = join(dir, 'list.csv');
    writeFileSync(path, csv());
    const urls = [`sqlite:${join(dir, 'receiver.db')}`];
    if (pg) {
      execFileSync('psql', [pg, '-qc', `CREATE SCHEMA ${schema}`]);
      const parsed = new URL(pg);
      parsed.searchParams.set('options', `-c search_path=${schema}`);
      urls.push(parsed.toString());
    }
    for (const url of urls) {
      const seeded = performance.now();
      await seed(url);
      console.error(`seeded ${ROWS} orders on ${url.split(':')[0]} in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
      execFileSync(process.execPath, [...process.execArgv, __filename, 'measure', url, path], { stdio: 'inherit' });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (pg) execFileSync('psql', [pg, '-qc', `DROP SCHEMA IF EXISTS ${schema} CASCADE`]);
  }
}

void main();
