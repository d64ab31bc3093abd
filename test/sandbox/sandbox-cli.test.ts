import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { msgAuth, post, tradeBody } from './sandbox-fixtures';

const DIST = join(__dirname, '..', '..', 'dist');

/**
 * An empty working directory of the test's own: the CLIs read `.env` from theirs, and a
 * checkout's `.env` (the README's first session makes one) must never reach a test.
 */
function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-cwd-'));
  made.push(dir);
  return dir;
}
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Starts a built CLI on a port the OS picks and reads the URL it prints. */
async function startCli(args: string[], env: Record<string, string>, cwd = emptyDir()) {
  const script = join(DIST, args[0]!);
  if (!existsSync(script)) throw new Error(`${script} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [script, ...args.slice(1), '--port', '0', '--retry-interval', '10'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout! });
  const printed: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    // A sandbox that never says where it listens is stopped, never left behind for jest to wait on.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sandbox printed no URL: ${printed.join('\n')}`));
    }, 15_000);
    lines.on('line', (line) => {
      printed.push(line);
      const found = /gateway sandbox on (http:\/\/\S+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}`));
    });
  });
  return { child, url, printed };
}

describe('the sandbox command', () => {
  test.each([
    ['noti-receiver sandbox', ['cli/receiver-cli.js', 'sandbox']],
    ['sandbox-cli.js (npm run sandbox)', ['sandbox/sandbox-cli.js']],
  ])('%s serves the gateway with the HMAC key from GATEWAY_SECRET_KEY and stops on SIGTERM', async (_, args) => {
    const { child, url, printed } = await startCli(args, { GATEWAY_SECRET_KEY: 'sandbox-test-key' });
    try {
      const trade = await post(`${url}/api/trades/wallet-a`, tradeBody());
      expect(trade.body.resCd).toBe('0000');
      // The key is the one the service would use: a cancellation signed with it passes the check.
      const cancel = await post(`${url}/api/trades/wallet-b/revise`, {
        mallId: 'T0001234', pgCno: '26112100000000000001', shopTransactionId: 'cx-1', reviseTypeCode: '40', cancelReqDate: '20261122',
        msgAuthValue: msgAuth('26112100000000000001', 'cx-1'),
      });
      expect(cancel.body.resCd).toBe('E201');
      expect(printed.join('\n')).toContain(`GATEWAY_WALLET_A_URL=${url}`);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  test('without a key, the sandbox says so and refuses cancellations with E102', async () => {
    const { child, url, printed } = await startCli(['sandbox/sandbox-cli.js'], {});
    try {
      expect(printed.join('\n')).toContain('no GATEWAY_SECRET_KEY');
      const cancel = await post(`${url}/api/trades/wallet-b/revise`, {
        mallId: 'T0001234', pgCno: '1', shopTransactionId: 'cx-1', reviseTypeCode: '40', cancelReqDate: '20261122', msgAuthValue: 'x',
      });
      expect(cancel.body.resCd).toBe('E102');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  test("a mall's own key (GATEWAY_SECRET_KEY_<MALLID>) is the one checked, as in the service", async () => {
    const { child, url } = await startCli(['sandbox/sandbox-cli.js'], { GATEWAY_SECRET_KEY: 'another-key', GATEWAY_SECRET_KEY_T0001234: 'sandbox-test-key' });
    try {
      const cancel = await post(`${url}/api/trades/wallet-b/revise`, {
        mallId: 'T0001234', pgCno: '26112100000000000001', shopTransactionId: 'cx-1', reviseTypeCode: '40', cancelReqDate: '20261122',
        msgAuthValue: msgAuth('26112100000000000001', 'cx-1'),
      });
      expect(cancel.body.resCd).toBe('E201');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  test.each([
    ['noti-receiver sandbox', ['cli/receiver-cli.js', 'sandbox']],
    ['sandbox-cli.js (npm run sandbox)', ['sandbox/sandbox-cli.js']],
  ])('%s reads GATEWAY_SECRET_KEY from .env in the working directory, as the receiver does', async (_, args) => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-dotenv-'));
    writeFileSync(join(dir, '.env'), 'GATEWAY_SECRET_KEY=sandbox-test-key\n');
    const { child, url, printed } = await startCli(args, {}, dir);
    try {
      expect(printed.join('\n')).not.toContain('no GATEWAY_SECRET_KEY');
      const cancel = await post(`${url}/api/trades/wallet-b/revise`, {
        mallId: 'T0001234', pgCno: '26112100000000000001', shopTransactionId: 'cx-1', reviseTypeCode: '40', cancelReqDate: '20261122',
        msgAuthValue: msgAuth('26112100000000000001', 'cx-1'),
      });
      // E201 (no such trade) means the signature passed: the key came from .env.
      expect(cancel.body.resCd).toBe('E201');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an unreadable GATEWAY_SECRET_KEY_FILE stops it at start with one line naming the variable (exit 2)', async () => {
    const run = promisify(execFile)(process.execPath, [join(DIST, 'sandbox', 'sandbox-cli.js'), '--port', '0'], {
      cwd: emptyDir(),
      // A sandbox that starts after all must not outlive the test.
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? '', GATEWAY_SECRET_KEY_FILE: '/nonexistent/key' },
    });
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('sandbox: invalid GATEWAY_SECRET_KEY_FILE: cannot read /nonexistent/key') });
  });
});
