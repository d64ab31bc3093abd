import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { PATHS, startFakeGateway } from './fake-gateway';
import { API_TOKEN, HMAC_KEY, walletCancel } from './api-harness';

/** Debian's libfaketime (apt-get install faketime) moves one process's wall clock, not the machine's. */
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const describeFaketime = existsSync(LIBFAKETIME) ? describe : describe.skip;
if (!existsSync(LIBFAKETIME)) console.warn(`skipping the faketime process test: ${LIBFAKETIME} is missing (apt-get install faketime)`);

const at = (utc: string) => ({ LD_PRELOAD: LIBFAKETIME, FAKETIME: `@${utc}`, FAKETIME_DONT_FAKE_MONOTONIC: '1', TZ: 'UTC' });

/**
 * A wall clock the test moves while the process runs: libfaketime reads the file at every call.
 * `@start` counts from the process's start, so a slow start on a loaded machine used to carry
 * the POST past midnight; here the clock stands still at the chosen second until told to run.
 */
function steeredClock(file: string) {
  const write = (spec: string) => {
    writeFileSync(`${file}.new`, `${spec}\n`);
    renameSync(`${file}.new`, file); // never a half-written spec for the process to read
  };
  return {
    env: { LD_PRELOAD: LIBFAKETIME, FAKETIME_TIMESTAMP_FILE: file, FAKETIME_NO_CACHE: '1', FAKETIME_DONT_FAKE_MONOTONIC: '1', TZ: 'UTC' },
    stopAt: (utc: string) => write(utc),
    runFrom: (utc: string) => write(`+${((Date.parse(`${utc.replace(' ', 'T')}Z`) - Date.now()) / 1000).toFixed(3)}`),
  };
}

describeFaketime('the built service on a UTC clock across midnight in Korea', () => {
  it('resends a cancellation begun at 23:59:58 KST with its first date, after a restart at 09:00 KST the next day', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-midnight-'));
    const gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    gateway.script(PATHS.revise, { hang: true }, { answer: { resCd: 'A213', resMsg: 'retry' } });
    const env = { API_TOKEN, GATEWAY_SECRET_KEY: HMAC_KEY, GATEWAY_WALLET_B_URL: gateway.url, GATEWAY_TIMEOUT_MS: '2000' };
    let receiver: SpawnedReceiver | null = null;
    try {
      const clock = steeredClock(join(dir, 'faketime.rc'));
      clock.runFrom('2026-12-31 14:59:00');
      receiver = await spawnReceiver(dir, { ...env, ...clock.env, GATEWAY_RETRY_BASE_MS: '600000' });
      clock.stopAt('2026-12-31 14:59:58');
      const onTheWire = gateway.waitForCalls(PATHS.revise, 1).then(() => clock.runFrom('2026-12-31 14:59:58'));
      onTheWire.catch(() => undefined); // awaited below; a failed POST must not leave it unhandled
      const res = await fetch(`http://127.0.0.1:${receiver.apiPort}/v1/wallet-b/cancellations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(walletCancel({ shopTransactionId: 'midnight-1' })),
      });
      expect(res.status).toBe(202);
      await onTheWire;
      receiver.child.kill('SIGTERM');
      await receiver.exited;

      receiver = await spawnReceiver(dir, { ...env, ...at('2027-01-01 00:00:00'), GATEWAY_RETRY_BASE_MS: '50' });
      const calls = await gateway.waitForCalls(PATHS.revise, 3);
      const record = await eventually(async () => {
        const answer = await fetch(`http://127.0.0.1:${receiver!.apiPort}/v1/commands/midnight-1`, { headers: { Authorization: `Bearer ${API_TOKEN}` } });
        const body = (await answer.json()) as { state: string; attempts: number; createdAt: string; request: { cancelReqDate: string } };
        return body.state === 'succeeded' && body;
      });
      expect(record.attempts).toBe(3);
      expect(record.createdAt).toBe('2026-12-31T14:59:58.000Z');
      expect(calls.map((c) => c.body.cancelReqDate)).toEqual(['20261231', '20261231', '20261231']);
      expect(new Set(calls.map((c) => c.body.msgAuthValue)).size).toBe(1);
    } finally {
      if (receiver && receiver.child.exitCode === null) {
        receiver.child.kill('SIGTERM');
        await receiver.exited;
      }
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
