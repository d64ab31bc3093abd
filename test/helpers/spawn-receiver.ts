import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const MAIN_JS = resolve(__dirname, '..', '..', 'dist', 'main.js');

export interface SpawnedReceiver {
  child: ChildProcess;
  port: number;
  adminPort: number;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
  /** Every JSON log line the service has written so far. */
  logs: () => Array<Record<string, unknown>>;
}

/** The built service as an operator runs it (`npm test` builds first), on ports the OS picks. */
export async function spawnReceiver(cwd: string, env: Record<string, string> = {}): Promise<SpawnedReceiver> {
  if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  const lines = createInterface({ input: child.stdout! });
  const listening = await new Promise<{ port: number; adminPort: number }>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`receiver did not start: ${stderr}`)), 15_000);
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { message?: string; port?: number; adminPort?: number };
        if (entry.message === 'listening') {
          clearTimeout(timer);
          done({ port: entry.port!, adminPort: entry.adminPort! });
        }
      } catch {
        /* not a log line */
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      fail(new Error(`receiver exited with ${code}: ${stderr}`));
    });
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  const logs: Array<Record<string, unknown>> = [];
  lines.on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      /* not a log line */
    }
  });
  return { child, ...listening, url: `http://127.0.0.1:${listening.port}/notifications`, exited, stderr: () => stderr, logs: () => [...logs] };
}

export function readEventsFile(path: string): Array<{ id: string; pgCno: string; cancelPgCno: string | null; status: { code: string } | null }> {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

export const eventsFileIn = (dir: string) => join(dir, 'data', 'events.ndjson');
