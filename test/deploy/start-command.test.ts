import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeFlags } from '../../bench/processes';
import { eventually } from '../helpers/eventually';
import { spawnReceiver } from '../helpers/spawn-receiver';

const REPO = join(__dirname, '..', '..');

/** The JSON-array CMD of the Dockerfile's last stage. */
function dockerCommand(): string[] {
  const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(readFileSync(join(REPO, 'Dockerfile'), 'utf8'));
  if (!cmd) throw new Error('the Dockerfile has no CMD in JSON form');
  return JSON.parse(cmd[1]!) as string[];
}

describe('how the receiver is started', () => {
  it('the image runs main.js with the same node flags as npm start (and the bench)', () => {
    const flags = startNodeFlags(REPO);
    expect(flags).toEqual(['--max-semi-space-size=8', '--max-old-space-size=512']);
    expect(dockerCommand()).toEqual(['node', ...flags, 'dist/main.js']);
  });

  it('node takes those flags: the main thread heap is capped (V8 counts three semi-spaces in the limit)', () => {
    const limitOf = (flags: string[]) =>
      Number(spawnSync(process.execPath, [...flags, '-p', "require('node:v8').getHeapStatistics().heap_size_limit / 1048576"], { encoding: 'utf8' }).stdout);
    const capped = limitOf(startNodeFlags(REPO));
    // 512 MB of old generation plus the young generation: 536 with 8 MB semi-spaces, 560 with node's default 16.
    expect(capped).toBeGreaterThanOrEqual(512);
    expect(capped).toBeLessThan(limitOf(['--max-old-space-size=512']));
  });
});

/** Every process below `pid` (children, grandchildren…), read from /proc while they run. */
function descendantsOf(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// A supervisor, `docker stop` on an image that runs npm, or an operator's `kill` sends SIGTERM to
// npm alone: unless node itself gets it, npm and its shell die and node lives on as an orphan that
// keeps the SQLite file locked, so the restart that follows fails "in use by another process".
const onLinux = process.platform === 'linux' ? describe : describe.skip;
onLinux('npm start, stopped with SIGTERM to npm', () => {
  let dir: string;
  /**
   * A folder npm sees as the package (its package.json, scripts/ and dist/ linked from the
   * checkout) and that the receiver starts in: it reads `.env` from its working directory, and a
   * checkout's `.env` (the README's first session makes one) must never reach a test.
   */
  let pkg: string;
  beforeAll(() => {
    // dist/ as fresh as a developer's checkout after one build, so npm start has nothing to compile.
    const built = spawnSync(process.execPath, [join(REPO, 'scripts', 'ensure-built.js')], { encoding: 'utf8' });
    expect(built.status).toBe(0);
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'npm-start-'));
    pkg = join(dir, 'package');
    mkdirSync(pkg);
    for (const name of ['package.json', 'scripts', 'dist']) symlinkSync(join(REPO, name), join(pkg, name));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the receiver too (no orphan keeps the database), and a restart on the same database starts', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, QUEUE_URL: `file:${join(dir, 'events.ndjson')}` };
    const npm = spawn('npm', ['start'], {
      cwd: pkg,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, PORT: '0', ADMIN_PORT: '0', API_PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout!.on('data', (chunk) => (output += String(chunk)));
    npm.stderr!.on('data', (chunk) => (output += String(chunk)));
    const exited = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let spawned: number[] = [];
    try {
      await eventually(() => output.includes('"message":"listening"'), 60_000, `npm start to listen (output so far: ${output})`);
      spawned = descendantsOf(npm.pid!);
      expect(spawned.length).toBeGreaterThan(0);
      // Only what npm start ran, never a tsc: dist/ is fresh.
      expect(output).not.toMatch(/\btsc\b|building dist/);

      npm.kill('SIGTERM');
      const [code] = await exited;
      expect(output).toContain('"message":"stopped"');
      expect(code).toBe(0);
      await eventually(() => spawned.every((pid) => !alive(pid)), 15_000, 'every process npm start ran to exit');

      const again = await spawnReceiver(dir, env);
      again.child.kill('SIGTERM');
      expect(await again.exited).toEqual({ code: 0, signal: null });
    } finally {
      for (const pid of [npm.pid!, ...spawned]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);
});

describe('the node version package.json asks for', () => {
  it('is at least the first that has process.loadEnvFile (20.12), which reading .env needs', () => {
    const minimum = (manifest: { engines?: { node?: string } }) => {
      const match = /^>=\s*(\d+)(?:\.(\d+))?/.exec(manifest.engines?.node ?? '');
      if (!match) throw new Error(`engines.node is not a ">=" range: ${manifest.engines?.node}`);
      return [Number(match[1]), Number(match[2] ?? 0)];
    };
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines?: { node?: string } };
    const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };
    for (const manifest of [pkg, lock.packages['']!]) {
      const [major, minor] = minimum(manifest);
      expect(major! > 20 || (major === 20 && minor! >= 12)).toBe(true);
    }
  });
});
