import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const MAIN_JS = resolve(__dirname, '..', '..', 'dist', 'main.js');

export interface SpawnedReceiver {
  child: ChildProcess;
  port: number;
  adminPort: number;
  /** The internal API's port; null when it is off (no API_TOKEN). */
  apiPort: number | null;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
  /** Everything the process wrote to stdout so far, as text. */
  stdout: () => string;
  /** Every JSON log line the service has written so far. */
  logs: () => Array<Record<string, unknown>>;
}

/** The built service as an operator runs it (`npm test` builds first), on ports the OS picks; `mainJs`: another build's (an older release's). */
export async function spawnReceiver(cwd: string, env: Record<string, string> = {}, mainJs = MAIN_JS): Promise<SpawnedReceiver> {
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [mainJs], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0', API_PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  let stdout = '';
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  const lines = createInterface({ input: child.stdout! });
  // Every line is kept (and stdout kept drained, so the child never blocks on a full pipe).
  const logs: Array<Record<string, unknown>> = [];
  lines.on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      /* not a log line */
    }
  });
  const listening = await new Promise<{ port: number; adminPort: number; apiPort: number | null }>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`receiver did not start: ${stderr}`)), 15_000);
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { message?: string; port?: number; adminPort?: number; apiPort?: number | null };
        if (entry.message === 'listening') {
          clearTimeout(timer);
          done({ port: entry.port!, adminPort: entry.adminPort!, apiPort: entry.apiPort ?? null });
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
  return { child, ...listening, url: `http://127.0.0.1:${listening.port}/notifications`, exited, stderr: () => stderr, stdout: () => stdout, logs: () => [...logs] };
}

/**
 * The events in a file sink, one JSON line each. While a relay may still be writing, pass
 * `whileWriting`: a read that races an append can see the last line half written (the sink
 * writes whole lines, but a reader is not atomic with a write), so only whole lines count, as
 * for any consumer tailing the file. Without it, a line that is not whole fails the read.
 */
export function readEventsFile(
  path: string,
  options: { whileWriting?: boolean } = {},
): Array<{ id: string; pgCno: string; cancelPgCno: string | null; status: { code: string } | null }> {
  if (!existsSync(path)) return [];
  let text = readFileSync(path, 'utf8');
  if (options.whileWriting) text = text.slice(0, text.lastIndexOf('\n') + 1);
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

export const eventsFileIn = (dir: string) => join(dir, 'data', 'events.ndjson');
