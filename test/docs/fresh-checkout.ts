import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './doc-blocks';

/**
 * A checkout as a newcomer has it after `npm ci`: no dist/ yet (so `npm run cli` must build it),
 * its own data/ and .env, sharing only read-only things (sources, node_modules) with this
 * worktree, so a block that builds or writes never disturbs the suites running beside it.
 */
export function freshCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'noti-docs-'));
  for (const name of ['node_modules', 'src', 'migrations']) symlinkSync(join(REPO, name), join(dir, name));
  for (const name of ['package.json', 'tsconfig.json', 'tsconfig.build.json', '.env.example', 'scripts', 'deploy', 'docs', 'README.md']) {
    cpSync(join(REPO, name), join(dir, name), { recursive: true });
  }
  return dir;
}

export function runBash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.on('exit', (code) => {
      // A block may start the receiver in the background; nothing it started outlives it.
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
      resolve({ code, output });
    });
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
