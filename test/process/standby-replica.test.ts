import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';

async function relayLockHeld(r: SpawnedReceiver): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${r.adminPort}/metrics`)).text();
  return Number(/^noti_receiver_relay_lock_held (\S+)$/m.exec(text)?.[1]);
}

describePostgres('a standby replica', () => {
  let schema: TestSchema;
  let dir: string;
  const running: SpawnedReceiver[] = [];

  beforeEach(async () => {
    schema = await createTestSchema();
    dir = mkdtempSync(join(tmpdir(), 'standby-'));
  });
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports that it does not hold the relay, and on SIGTERM exits 0 without waiting out SHUTDOWN_TIMEOUT_MS', async () => {
    // Ten minutes: before the fix a standby waited all of it (jest gives up long before).
    const env = { DATABASE_URL: schema.url, QUEUE_URL: `file:${join(dir, 'events.ndjson')}`, SHUTDOWN_TIMEOUT_MS: '600000' };
    const a = await spawnReceiver(dir, env);
    const b = await spawnReceiver(dir, env);
    running.push(a, b);
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
