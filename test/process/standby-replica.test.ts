import { join } from 'node:path';
import { eventually } from '../helpers/eventually';
import type { SpawnedReceiver } from '../helpers/spawn-receiver';
import { describePostgres } from '../store/pg-test-database';
import { postgresReplicas } from './postgres-replicas';

async function relayLockHeld(r: SpawnedReceiver): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${r.adminPort}/metrics`)).text();
  return Number(/^noti_receiver_relay_lock_held (\S+)$/m.exec(text)?.[1]);
}

describePostgres('a standby replica', () => {
  const replicas = postgresReplicas('standby');

  it('reports that it does not hold the relay, and on SIGTERM exits 0 without waiting out SHUTDOWN_TIMEOUT_MS', async () => {
    // Ten minutes: before the fix a standby waited all of it (jest gives up long before).
    const env = { QUEUE_URL: `file:${join(replicas.dir, 'events.ndjson')}`, SHUTDOWN_TIMEOUT_MS: '600000' };
    const a = await replicas.spawn(env);
    const b = await replicas.spawn(env);
    const held = await eventually(async () => {
      const both = [await relayLockHeld(a), await relayLockHeld(b)];
      return both.sort().join(',') === '0,1' ? both : undefined;
    }, 15_000, 'exactly one replica to hold the relay lock');
    expect(held).toEqual([0, 1]);

    const standby = (await relayLockHeld(a)) === 0 ? a : b;
    standby.child.kill('SIGTERM');
    expect(await standby.exited).toEqual({ code: 0, signal: null });
  });
});
