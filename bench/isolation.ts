import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSource, NotificationPool, paced, type LoadSource, type PacedResult } from './load';
import { REPO_ROOT, startReceiver } from './processes';
import { cloneSqlite, sendTemplateOrder, waitForTemplateSqlite } from './seed-ledger';

/**
 * `npm run bench:isolation` (issue 37): whether the ack's path is the ack's alone. A paced probe of
 * notifications as the bench's load sends them (ISO_RATE, 200/s, for ISO_S seconds) against the built receiver on SQLite, alone
 * and during `noti-receiver ledger rebuild` run by the CLI beside it on a store of ISO_ORDERS
 * (100,000) orders. Prints the probe's ack p99 alone and during, their ratio, the max and how many
 * answers were not 2xx (goal: at most 1.5x alone and 250 ms, none refused). BENCH_BASELINE_DIST
 * names another build's dist/ (a worktree of main) to measure in the same run.
 *
 * Not yet here: the partial cancels of one order, the console pages in a loop, and PostgreSQL.
 */
const RATE = Number(process.env.ISO_RATE ?? 200);
const SECONDS = Number(process.env.ISO_S ?? 15);
const ORDERS = Number(process.env.ISO_ORDERS ?? 100_000);
const PORT = 18_380;
const log = (line: string) => process.stderr.write(`[isolation] ${line}\n`);

/** The probe: the bench's paced load (fresh notifications, one in five a redelivery) at RATE. */
async function probe(url: string, source: LoadSource): Promise<PacedResult> {
  source.reserve(RATE * SECONDS);
  return paced(url, source, { rate: RATE, seconds: SECONDS, connections: 32 });
}

/** The CLI's rebuild on the same file, until it ends; resolves with its exit code. */
async function rebuild(dist: string, databaseUrl: string): Promise<number> {
  const child = spawn(process.execPath, [join(dist, 'cli', 'receiver-cli.js'), 'ledger', 'rebuild'], {
    env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code ?? -1;
}

async function measure(label: string, dist: string): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'isolation-bench-'));
  const file = join(work, 'receiver.db');
  const databaseUrl = `sqlite:${file}`;
  const env = {
    PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PORT: String(PORT + 1), EXTRA_ALLOWED_IPS: '127.0.0.1',
    DATABASE_URL: databaseUrl, QUEUE_URL: `file:${join(work, 'queue.ndjson')}`, LOG_LEVEL: 'warn',
  };
  const adminUrl = `http://127.0.0.1:${PORT + 1}`;
  const url = `http://127.0.0.1:${PORT}/notifications`;
  try {
    let receiver = await startReceiver(env, adminUrl, dist);
    await sendTemplateOrder(url);
    await waitForTemplateSqlite(file);
    await receiver.stop();
    const seeded = cloneSqlite(file, ORDERS);
    log(`${label}: seeded ${seeded.orders} orders in ${seeded.seconds.toFixed(1)} s`);
    receiver = await startReceiver(env, adminUrl, dist);
    const pool = new NotificationPool();
    const source = loadSource(pool, (size) => pool.growTo(size));
    try {
      const alone = await probe(url, source);
      log(`${label}: alone p99 ${alone.latencyP99Ms.toFixed(1)} ms`);
      const started = Date.now();
      let rebuilt: number | null = null;
      const running = rebuild(dist, databaseUrl).then((code) => (rebuilt = code));
      // The probe runs while the rebuild does (at least ISO_S seconds of it, or all of it).
      const during = await probe(url, source);
      await running;
      log(`${label}: rebuild exited ${rebuilt} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const ratio = during.latencyP99Ms / alone.latencyP99Ms;
      return `| ${label} | (c) ledger rebuild, ${ORDERS} orders | ${alone.latencyP99Ms.toFixed(1)} ms | ${during.latencyP99Ms.toFixed(1)} ms | ${ratio.toFixed(2)} | ${during.latencyMaxMs.toFixed(1)} ms | ${alone.bad + during.bad} |`;
    } finally {
      await receiver.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const builds: Array<[string, string]> = [];
  if (process.env.BENCH_BASELINE_DIST) builds.push(['baseline', process.env.BENCH_BASELINE_DIST]);
  builds.push(['this build', join(REPO_ROOT, 'dist')]);
  const rows: string[] = [];
  for (const [label, dist] of builds) rows.push(await measure(label, dist));
  console.log(`| build | during | ack p99 alone | ack p99 during | ratio | max during | not 2xx |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
