import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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

describeFaketime('the built service on a UTC clock across midnight in Korea', () => {
  it('resends a cancellation begun at 23:59:58 KST with its first date, after a restart at 09:00 KST the next day', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-midnight-'));
    const gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    gateway.script(PATHS.revise, { hang: true }, { answer: { resCd: 'A213', resMsg: 'retry' } });
    const env = { API_TOKEN, GATEWAY_SECRET_KEY: HMAC_KEY, GATEWAY_WALLET_B_URL: gateway.url, GATEWAY_TIMEOUT_MS: '2000' };
    let receiver: SpawnedReceiver | null = null;
    try {
      receiver = await spawnReceiver(dir, { ...env, ...at('2026-12-31 14:59:58'), GATEWAY_RETRY_BASE_MS: '600000' });
      const res = await fetch(`http://127.0.0.1:${receiver.apiPort}/v1/wallet-b/cancellations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(walletCancel({ shopTransactionId: 'midnight-1' })),
      });
      expect(res.status).toBe(202);
      receiver.child.kill('SIGTERM');
      await receiver.exited;

      receiver = await spawnReceiver(dir, { ...env, ...at('2027-01-01 00:00:00'), GATEWAY_RETRY_BASE_MS: '50' });
      const calls = await gateway.waitForCalls(PATHS.revise, 3);
      const record = await eventually(async () => {
        const answer = await fetch(`http://127.0.0.1:${receiver!.apiPort}/v1/commands/midnight-1`, { headers: { Authorization: `Bearer ${API_TOKEN}` } });
        const body = (await answer.json()) as { state: string; attempts: number; request: { cancelReqDate: string } };
        return body.state === 'succeeded' && body;
      });
      expect(record.attempts).toBe(3);
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
