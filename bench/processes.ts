import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

export interface RunningProcess {
  child: ChildProcess;
  /** Highest resident set size seen since the last reset, in MB. */
  peakRssMb(): number;
  resetPeakRss(): void;
  stop(): Promise<void>;
}

/** A port no one listens on now, as the kernel hands it out: two benches on one machine never share a receiver. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startBareServer(port: number): Promise<RunningProcess> {
  const child = fork(join(__dirname, 'bare-server.js'), [String(port)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await once(child, 'message');
  return watch(child);
}

/**
 * The built receiver exactly as `npm start` runs it, on its embedded defaults (SQLite, file sink).
 * `dist` may name another build's dist/ (a worktree of an earlier commit, with its migrations/ beside).
 */
export async function startReceiver(env: Record<string, string>, adminUrl: string, dist = join(REPO_ROOT, 'dist'), nodeFlags: string[] = []): Promise<RunningProcess> {
  const child = spawn(process.execPath, [...startNodeFlags(), ...nodeFlags, join(dist, 'main.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the receiver exited with ${child.exitCode} before it was ready`);
    const ready = await fetch(`${adminUrl}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the receiver did not become ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return watch(child);
}

/** The node flags `npm start` gives the receiver (its heap limits): the bench measures what is deployed. */
export function startNodeFlags(repoRoot = REPO_ROOT): string[] {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const match = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+dist\/main\.js\b/.exec(scripts.start ?? '');
  if (!match) throw new Error('package.json\'s start script does not run `node … dist/main.js`');
  return match[1]!.trim().split(/\s+/).filter(Boolean);
}

function watch(child: ChildProcess): RunningProcess {
  let peak = 0;
  const sample = () => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) / 1024);
    } catch {
      // Not Linux, or the process is gone: RSS is reported as 0.
    }
  };
  const timer = setInterval(sample, 250);
  return {
    child,
    peakRssMb: () => (sample(), peak),
    resetPeakRss: () => void (peak = 0),
    async stop() {
      clearInterval(timer);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
