import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';
import { API_TOKEN, vanApproval } from './api-harness';

/**
 * The built service as an operator runs it, killed with SIGKILL while the gateway holds an
 * approval open: nothing in the process gets to run, so only what was on disk before the
 * approval was sent can bring the net-cancel about after the restart.
 */
describe('an approval in flight when the process is SIGKILLed', () => {
  let gateway: FakeGateway;
  let dir: string;
  let receiver: SpawnedReceiver | null = null;
  beforeEach(async () => {
    gateway = await startFakeGateway();
    dir = mkdtempSync(join(tmpdir(), 'noti-sigkill-'));
  });
  afterEach(async () => {
    if (receiver && receiver.child.exitCode === null) {
      receiver.child.kill('SIGTERM');
      await receiver.exited;
    }
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = {
    TZ: 'UTC',
    API_TOKEN,
    GATEWAY_VAN_URL: '',
    GATEWAY_TIMEOUT_MS: '60000',
    GATEWAY_RETRY_BASE_MS: '50',
  };
  const post = (r: SpawnedReceiver, body: unknown) =>
    fetch(`http://127.0.0.1:${r.apiPort}/v1/van/approvals`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('is net-cancelled exactly once after the restart', async () => {
    gateway.script(PATHS.approve, { hang: true });
    receiver = await spawnReceiver(dir, { ...env, GATEWAY_VAN_URL: gateway.url });
    const body = vanApproval({ shopTransactionId: 'killed-1' });
    const inFlight = post(receiver, body).catch(() => null);
    await gateway.waitForCalls(PATHS.approve, 1);

    receiver.child.kill('SIGKILL');
    expect(await receiver.exited).toMatchObject({ signal: 'SIGKILL' });
    expect(await inFlight).toBeNull();
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(0);

    receiver = await spawnReceiver(dir, { ...env, GATEWAY_VAN_URL: gateway.url });
    const [netCancel] = await gateway.waitForCalls(PATHS.netCancel, 1);
    expect(netCancel!.body).toEqual(body);
    const record = await eventually(async () => {
      const res = await fetch(`http://127.0.0.1:${receiver!.apiPort}/v1/commands/killed-1`, { headers: { Authorization: `Bearer ${API_TOKEN}` } });
      const json = (await res.json()) as { state: string; attempts: number };
      return json.state === 'net_cancelled' && json;
    });
    expect(record.attempts).toBe(2);
    // Let any stray resend show itself before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(1);
    expect(gateway.calls(PATHS.approve)).toHaveLength(1);
  });
});
