import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { eventually } from '../helpers/eventually';
import { PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';
import { startApiHarness, vanApproval, walletCancel, type ApiHarness } from './api-harness';

/** Two replicas on one PostgreSQL schema, each with its own pool, worker and clock. */
describePostgres('commands on PostgreSQL with two replicas', () => {
  let schema: TestSchema;
  let gateway: FakeGateway;
  let replicas: ApiHarness[] = [];
  beforeEach(async () => {
    schema = await createTestSchema();
    gateway = await startFakeGateway();
  });
  afterEach(async () => {
    for (const replica of replicas) await replica.close();
    replicas = [];
    await gateway.close();
    await schema.drop();
  });

  const replica = async (owner: string, options: { worker?: boolean } = {}) => {
    const r = await startApiHarness(gateway, { DATABASE_URL: schema.url }, { owner, ...options });
    replicas.push(r);
    return r;
  };

  it('each pending command is resent by one replica: every key reaches the gateway exactly twice', async () => {
    const a = await replica('replica-a');
    const b = await replica('replica-b');
    const keys = Array.from({ length: 12 }, (_, i) => `pg-lease-${i}`);
    for (const _key of keys) gateway.script(PATHS.revise, { answer: { resCd: 'A211', resMsg: 'busy' } });
    await Promise.all(keys.map((key, i) => (i % 2 ? a : b).post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: key })).expect(202)));

    await eventually(async () => {
      const done = await a.commands.listCommands({ state: 'succeeded' });
      return done.length === keys.length;
    });
    for (const key of keys) {
      expect(gateway.calls(PATHS.revise).filter((c) => c.body.shopTransactionId === key)).toHaveLength(2);
      expect((await b.commands.getCommand(key))!.attempts).toBe(2);
    }
    const events = await eventually(() => {
      const all = [...a.forwarded(), ...b.forwarded()];
      return all.length >= keys.length && all;
    });
    expect(new Set(events.map((e) => e.id)).size).toBe(keys.length);
  });

  it("leaves a live replica's lease alone and takes the command over once the lease has expired", async () => {
    const dead = await replica('replica-dead', { worker: false });
    const body = vanApproval({ shopTransactionId: 'pg-doubt-1' });
    // What a replica leaves behind when it dies mid-approval: the command leased, the attempt begun.
    const now = Date.now();
    await dead.commands.createCommand({
      kind: 'van.approve', shopTransactionId: body.shopTransactionId, mallId: body.mallId, bodyHash: 'x', request: body,
      state: 'pending', at: new Date(now).toISOString(), owner: 'replica-dead', leaseUntil: now + 60_000,
    });
    await dead.commands.beginAttempt({
      shopTransactionId: body.shopTransactionId, owner: 'replica-dead', operation: 'van.approve', request: body,
      state: 'pending', at: new Date(now).toISOString(), leaseUntil: now + 60_000,
    });

    const survivor = await replica('replica-survivor');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(0);
    expect((await survivor.commands.getCommand(body.shopTransactionId))!.lockedBy).toBe('replica-dead');

    survivor.setClockOffset(61_000);
    await eventually(async () => (await survivor.commands.getCommand(body.shopTransactionId))?.state === 'net_cancelled');
    expect(gateway.calls(PATHS.netCancel).map((c) => c.body)).toEqual([body]);
  });

  it('a lease is never granted twice: two replicas leasing at once split the due commands', async () => {
    const a = await replica('lease-a', { worker: false });
    const b = await replica('lease-b', { worker: false });
    const now = Date.now();
    for (let i = 0; i < 20; i++) {
      const id = `split-${i}`;
      await a.commands.createCommand({
        kind: 'van.cancel', shopTransactionId: id, mallId: 'T1', bodyHash: 'x', request: { mallId: 'T1', shopTransactionId: id },
        state: 'pending', at: new Date(now).toISOString(), owner: 'nobody', leaseUntil: now - 1,
      });
    }
    const [leasedA, leasedB] = await Promise.all([a.commands.leaseDue('lease-a', now, now + 60_000, 15), b.commands.leaseDue('lease-b', now, now + 60_000, 15)]);
    const ids = [...leasedA, ...leasedB].map((c) => c.shopTransactionId);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    expect(await a.commands.leaseDue('lease-a', now, now + 60_000, 15)).toEqual([]);
  });
});
