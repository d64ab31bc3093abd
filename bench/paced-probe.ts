import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSource, NotificationPool, paced, type PacedResult } from './load';
import { REPO_ROOT, startReceiver, type RunningProcess } from './processes';
import { median } from './rounds';

/**
 * `npm run bench:probe` (issue 37): the isolation bench's paced probe alone, nothing beside it, on
 * this build and on BENCH_BASELINE_DIST (e.g. a worktree of `2fef6f1~1`, the build before the
 * ledger) in alternated runs: both receivers run on fresh SQLite stores the whole time, and each
 * round probes one then the other, so a stall of the shared machine lands on both. Prints each
 * build's ack p99 per run and their medians. PROBE_RATE (200/s), PROBE_S (10), PROBE_ROUNDS (5).
 */
const RATE = Number(process.env.PROBE_RATE ?? 200);
const SECONDS = Number(process.env.PROBE_S ?? 10);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 5);
const PORT = 18_580;
const log = (line: string) => process.stderr.write(`[probe] ${line}\n`);

interface Build {
  label: string;
  url: string;
  receiver: RunningProcess;
  runs: PacedResult[];
}

async function started(label: string, dist: string, port: number, work: string): Promise<Build> {
  const env = {
    PORT: String(port), HOST: '127.0.0.1', ADMIN_PORT: String(port + 1), EXTRA_ALLOWED_IPS: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(work, `${port}.db`)}`, QUEUE_URL: `file:${join(work, `${port}.ndjson`)}`, LOG_LEVEL: 'warn',
  };
  const receiver = await startReceiver(env, `http://127.0.0.1:${port + 1}`, dist);
  return { label, url: `http://127.0.0.1:${port}/notifications`, receiver, runs: [] };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'probe-bench-'));
  const builds: Build[] = [];
  try {
    if (process.env.BENCH_BASELINE_DIST) builds.push(await started('baseline', process.env.BENCH_BASELINE_DIST, PORT + 10, work));
    builds.push(await started('this build', join(REPO_ROOT, 'dist'), PORT, work));
    const pool = new NotificationPool();
    const source = loadSource(pool, (size) => pool.growTo(size));
    log(`${RATE}/s for ${SECONDS} s, ${ROUNDS} alternated rounds, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Which build goes first alternates too: the second run of a round never always gets the warmer machine.
      for (const build of round % 2 === 0 ? [...builds].reverse() : builds) {
        source.reserve(RATE * SECONDS);
        const result = await paced(build.url, source, { rate: RATE, seconds: SECONDS, connections: 32 });
        log(`round ${round}, ${build.label}: p99 ${result.latencyP99Ms.toFixed(1)} ms, max ${result.latencyMaxMs.toFixed(1)} ms, ${result.bad} not acked, send lag p99 ${result.sendLagP99Ms.toFixed(1)} ms`);
        build.runs.push(result);
      }
    }
    log(`load average at the end ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
    console.log(['| build | ack p99 per run | median p99 | median p50 | not acked |', '|---|---|---|---|---|',
      ...builds.map((b) => `| ${b.label} | ${b.runs.map((r) => r.latencyP99Ms.toFixed(1)).join(', ')} ms | ${median(b.runs.map((r) => r.latencyP99Ms)).toFixed(1)} ms | ${median(b.runs.map((r) => r.latencyP50Ms)).toFixed(1)} ms | ${b.runs.reduce((n, r) => n + r.bad, 0)} |`),
    ].join('\n'));
  } finally {
    for (const build of builds) await build.receiver.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
