import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startNodeFlags } from '../../bench/processes';

const REPO = join(__dirname, '..', '..');
const WORKERS_DIR = join(REPO, 'dist', 'store', 'sqlite');

/** The V8 heap limit (MB) of a worker started by the built startWorker in a node started as npm start starts it. */
function workerHeapLimit(resourceLimits: object): number {
  const dir = mkdtempSync(join(tmpdir(), 'worker-heap-'));
  try {
    writeFileSync(
      join(dir, 'report-heap.js'),
      "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit / 1048576);",
    );
    const script = `
      const { startWorker } = require(${JSON.stringify(join(WORKERS_DIR, 'start-worker.js'))});
      const worker = startWorker(${JSON.stringify(relative(WORKERS_DIR, join(dir, 'report-heap')))}, {}, ${JSON.stringify(resourceLimits)});
      worker.once('message', (mb) => { console.log(mb); worker.terminate(); });`;
    const run = spawnSync(process.execPath, [...startNodeFlags(REPO), '-e', script], { encoding: 'utf8', timeout: 20_000 });
    if (run.status !== 0) throw new Error(run.stderr);
    return Number(run.stdout.trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('worker heap limits under the main thread\'s node flags', () => {
  it('a worker keeps its own young generation limit, not the main thread\'s --max-semi-space-size', () => {
    // 512 MB old generation + 6 MB young; with the main thread's flag in force it would be 512 + 3 x 8.
    expect(workerHeapLimit({ maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 512 })).toBe(518);
  });
});
