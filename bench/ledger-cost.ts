import { join } from 'node:path';
import { loadBuild } from './ledger-bench-store';
import { ledgerCostConfig, runLedgerCost } from './ledger-cost-run';
import { REPO_ROOT } from './processes';

/**
 * `npm run bench:ledger`: what the ledger's projection costs as an order's history grows,
 * through the built store (dist/: openStores, the real procedures, the SQLite writer thread and
 * group commit) in this process, on SQLite and, with BENCH_POSTGRES_URL (or TEST_POSTGRES_URL),
 * PostgreSQL (a server on this machine: its backends' CPU is read from /proc).
 *
 * 1. One more input on an order of K facts (LEDGER_COST_K, `1,1000,5000`: a payment then K-1
 *    one-won partial cancels, stored and projected), added alone LEDGER_COST_R times (20): CPU
 *    per input of this process's main thread, of the threads the store started (SQLite's writer
 *    and checkpointer) and of the whole process; SQLite: the WAL's growth (sqlite-wal-guard.ts);
 *    PostgreSQL: the CPU of the backends serving the store and the ledger's TOAST growth.
 * 2. LEDGER_COST_LONG (10,000) one-won cancels of one payment stored at LEDGER_COST_LONG_RATE
 *    (500/s) with the projector running: its time on the first and the last LEDGER_COST_BLOCK
 *    (1,000) of them, and the longest a cancel waited between its ack and its projection.
 * 3. The mix of every event type at LEDGER_COST_MIX_RATE (1000/s): LEDGER_COST_MIX_WARMUP
 *    (10,000) unmeasured, then LEDGER_COST_MIX (50,000) measured: CPU per notification here,
 *    WAL pages per notification (SQLite, counted from the wal-index), the backends' CPU (PostgreSQL).
 *
 * BENCH_BASELINE_DIST: another build's dist/ (a worktree of an earlier commit, its migrations/
 * beside it) measured in the same run, alternated with this one round by round
 * (LEDGER_COST_ROUNDS, 3; the median is shown). LEDGER_COST_STORES (`sqlite,postgres`) and
 * LEDGER_COST_PARTS (`append,long,mix`) pick what runs.
 */
const log = (line: string) => process.stderr.write(`[ledger-cost] ${line}\n`);

async function main(): Promise<void> {
  const builds = [loadBuild('this build', join(REPO_ROOT, 'dist'))];
  if (process.env.BENCH_BASELINE_DIST) builds.push(loadBuild('baseline build', process.env.BENCH_BASELINE_DIST));
  process.stdout.write(`${await runLedgerCost(builds, ledgerCostConfig(process.env), log)}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`[ledger-cost] failed: ${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
