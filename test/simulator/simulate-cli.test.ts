import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', 'dist', 'simulator', 'simulate-cli.js');
/** Run from `cwd` (where a `.env` may be) with only `env` as the environment. */
const simulateIn = (cwd: string, env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 20_000 });
/**
 * Run from an empty folder of the test's own with nothing in the environment: the simulator
 * reads `.env` from its working directory, and a checkout's `.env` must never reach a test.
 */
let empty: string;
beforeAll(() => {
  empty = mkdtempSync(join(tmpdir(), 'simulate-cwd-'));
});
afterAll(() => rmSync(empty, { recursive: true, force: true }));
const simulate = (...args: string[]) => simulateIn(empty, {}, ...args);

describe('the simulate command line', () => {
  it('documents its exit codes in its help, and exits 0 for --help', () => {
    const run = simulate('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Exit codes:\s+0 .*acked[\s\S]*\n\s+1 .*never acked[\s\S]*\n\s+2 .*usage/);
  });

  it('says in its help that its stories are coherent, how they are marked, and which discrepancy each fault opens', () => {
    const run = simulate('--help');
    expect(run.stdout).toMatch(/opens no discrepancy unless --faults/);
    expect(run.stdout.replace(/\s+/g, ' ')).toMatch(/Every notification is signed with a key made from the receiver's API_TOKEN \(else ADMIN_TOKEN\)/);
    expect(run.stdout).toMatch(/\n\s+double-payment\s+duplicate_payment\n/);
    expect(run.stdout).toMatch(/\n\s+amount-mismatch\s+amount_mismatch; needs --api-url\n/);
  });

  it.each([
    [['--url', 'localhost:8080/notifications']],
    [['--url', 'ftp://127.0.0.1/notifications']],
    [['--url', 'http://127.0.0.1:1/notifications', '--count', '0']],
    [['--url', 'http://127.0.0.1:1/notifications', '--event', '99']],
    [['--url', 'http://127.0.0.1:1/notifications', '--no-such-option']],
    [['--url', 'http://127.0.0.1:1/notifications', '--faults', 'over-cancel,no-such-fault']],
    [['--url', 'http://127.0.0.1:1/notifications', '--faults', 'amount-mismatch']],
    [['--url', 'http://127.0.0.1:1/notifications', '--faults', 'amount-mismatch', '--api-url', 'localhost:8081']],
  ])('treats %j as a usage error (exit 2), as its help says', (args) => {
    const run = simulate(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/error: /);
  });

  // Was: no --url at all was a usage error. Now the receiver's own settings say where it listens.
  it("without --url, sends to the receiver that .env and the environment describe (HOST, PORT, NOTIFY_PATH), and a bad setting there is a usage error", () => {
    const dir = mkdtempSync(join(tmpdir(), 'simulate-dotenv-'));
    try {
      // Port 1: nothing listens, so the failure names the address the settings gave.
      writeFileSync(join(dir, '.env'), 'PORT=1\nNOTIFY_PATH=/notifications/k3y\n');
      const run = simulateIn(dir, {}, '--event', '10');
      expect(run.status).toBe(1);
      expect(run.stdout).toContain('connect ECONNREFUSED 127.0.0.1:1');
      const bad = simulateIn(dir, { PORT: 'x' }, '--event', '10');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/^error: no --url, and the receiver's settings do not say where it listens: invalid PORT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 1 when nothing acks, naming the cause once', () => {
    const run = simulate('--url', 'http://127.0.0.1:1/notifications', '--event', '10,70', '--count', '3');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/FAILED/);
    expect(run.stdout.match(/never acked/g)).toHaveLength(1);
    expect(run.stdout).toMatch(/is the receiver running/);
  });
});
